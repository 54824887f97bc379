import { ACCOUNT_PERMISSION, operationHandlers } from '../../../kernel/plugin/api.js';
import type { Call, Handler, Reply } from '../../../kernel/types.js';
import { invalidCredential } from '../authenticators/credentials.js';
import { clearedCookies, readCookie, REFRESH_COOKIE, SESSION_COOKIE, sessionCookies } from '../browser/cookies.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import {
  findByAccessHash,
  findByRefreshHash,
  getSession,
  revokeSession,
  revokeSubjectSessions,
  type SessionRow,
} from '../store/sessions.js';
import { getUser } from '../store/users.js';
import { iso } from '../time.js';
import { hashSecret, parseSecret } from '../tokens/format.js';
import { sessionFlows } from './sign-in.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The session the browser's cookies name: its access token, else its refresh token (the access cookie may have expired). */
async function cookieSession(call: Call): Promise<SessionRow | undefined> {
  const access = readCookie(call.headers.cookie, SESSION_COOKIE);
  if (access && parseSecret(access) === 'session') {
    const row = await findByAccessHash(call.db, hashSecret(access));
    if (row) return row;
  }
  const refresh = readCookie(call.headers.cookie, REFRESH_COOKIE);
  if (refresh && parseSecret(refresh) === 'refresh') return findByRefreshHash(call.db, hashSecret(refresh));
  return undefined;
}

/**
 * The browser's sign-in routes: the same sessions as /auth/login and /auth/refresh, with the
 * tokens in HttpOnly cookies instead of the body, so no script of the page can read them. The
 * CSRF check of these routes runs before them (browser/step.ts).
 */
export function browserHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { clock } = deps;
  const { signIn, refreshWith } = sessionFlows(deps);

  return operationHandlers<Operations>({
    async browserLogin(call) {
      const outcome = await signIn(call);
      if ('refused' in outcome) return outcome.refused;
      const { tokens, user } = outcome;
      return {
        status: 200,
        body: {
          user: { id: user.id, username: user.username, tenant_id: user.tenant_id },
          expires_at: tokens.expires_at,
          refresh_expires_at: tokens.refresh_expires_at,
        },
        headers: NO_STORE,
        cookies: sessionCookies(call, tokens, clock.now()),
      };
    },

    async browserRefresh(call) {
      const token = readCookie(call.headers.cookie, REFRESH_COOKIE);
      if (!token) throw invalidCredential('There is no session to refresh: sign in.');
      const outcome = await refreshWith(call, token);
      // A reused refresh token ended the session: the browser forgets it too.
      if ('refused' in outcome) return { ...outcome.refused, cookies: clearedCookies(call) };
      const { tokens } = outcome;
      return {
        status: 200,
        body: { expires_at: tokens.expires_at, refresh_expires_at: tokens.refresh_expires_at },
        headers: NO_STORE,
        cookies: sessionCookies(call, tokens, clock.now()),
      };
    },

    /**
     * Ends the session the cookies name (or every session of its subject) and clears them. It
     * answers 204 even when the session had already ended, so a browser can always sign out.
     */
    async browserLogout(call) {
      const everywhere = call.body.everywhere === true;
      const session = await cookieSession(call);
      const reply: Reply = { status: 204, cookies: clearedCookies(call) };
      if (!session) return reply;
      const now = clock.now();
      call.tenantId = session.tenant_id;
      if (everywhere) {
        call.resourceId = session.subject_id;
        const revoked = await revokeSubjectSessions(call.db, session.tenant_id, session.subject_id, 'logout_all', now);
        call.notes.auditDetail = { everywhere: true, sessions_revoked: revoked };
      } else {
        call.resourceId = session.id;
        const revoked = await revokeSession(call.db, session.tenant_id, session.id, 'logout', now);
        call.notes.auditDetail = { everywhere: false, sessions_revoked: revoked ? 1 : 0 };
      }
      return reply;
    },

    async getMe(call) {
      const { principal } = call;
      const { credential } = principal;
      const user: Record<string, unknown> = {
        id: principal.subjectId,
        username: null,
        tenant_id: principal.tenantId,
        kind: credential.kind,
      };
      let session: { id: string; expires_at: string } | null = null;
      if (credential.kind === 'session') {
        const [row, sessionRow] = await Promise.all([
          getUser(call.db, principal.tenantId, principal.subjectId),
          getSession(call.db, principal.tenantId, credential.id),
        ]);
        if (row) {
          user.username = row.username;
          if (row.display_name) user.display_name = row.display_name;
        }
        if (sessionRow) session = { id: sessionRow.id, expires_at: iso(sessionRow.access_expires_at) };
      }
      if (principal.email) user.email = principal.email;
      return {
        status: 200,
        body: {
          user,
          tenant_id: principal.tenantId,
          roles: [...principal.roles],
          permissions: [...principal.permissions].sort(),
          account_admin: principal.permissions.has(ACCOUNT_PERMISSION),
          read_only: principal.readOnly === true,
          session,
        },
        headers: NO_STORE,
      };
    },
  });
}
