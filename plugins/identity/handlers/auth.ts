import { ApiError } from '../../../kernel/errors.js';
import type { Call, Handler } from '../../../kernel/types.js';
import { invalidCredential } from '../authenticators/credentials.js';
import type { IdentityDeps } from '../deps.js';
import { loginVerdict } from '../passwords/step.js';
import { createSession, findByRefreshHash, findRotatedOut, listActiveSessions, revokeSession, revokeSubjectSessions, rotateSession } from '../store/sessions.js';
import { getUser, updateUser } from '../store/users.js';
import { addSeconds } from '../time.js';
import { hashSecret, parseSecret } from '../tokens/format.js';
import { pageOf, principalOf, refusal } from './common.js';

/** One answer for unknown user, wrong password, disabled and locked accounts (no enumeration). */
const LOGIN_REFUSED = 'Invalid tenant, username or password.';

function sessionOf(call: Call): { tenantId: string; sessionId: string; subjectId: string } {
  const principal = principalOf(call);
  if (principal.credential.kind !== 'session') throw new ApiError('bad_request', 'This call needs a session credential (Bearer sess_…); other credentials have no session to end.');
  return { tenantId: principal.tenantId, sessionId: principal.credential.id, subjectId: principal.subjectId };
}

export function authHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { settings, clock } = deps;
  const lockout = settings.lockout;

  return {
    async login(call) {
      const verdict = loginVerdict(call);
      if (!verdict) throw new ApiError('internal_error', 'the password step did not run');
      const body = call.body as { tenant_id: string; username: string };
      call.tenantId = body.tenant_id;
      const now = clock.now();
      if (!verdict.user) return refusal('invalid_credentials', LOGIN_REFUSED);
      const user = await getUser(call.db, verdict.user.tenantId, verdict.user.id, true);
      call.resourceId = verdict.user.id;
      // A password changed since the check, a lock or a disabled account: refused, not counted.
      if (!user || user.password_hash !== verdict.user.checkedHash) return refusal('invalid_credentials', LOGIN_REFUSED);
      if (user.locked_until !== null && new Date(user.locked_until) > now) {
        call.notes.auditDetail = { refused: 'locked' };
        return refusal('invalid_credentials', LOGIN_REFUSED);
      }
      if (user.disabled) {
        call.notes.auditDetail = { refused: 'disabled' };
        return refusal('invalid_credentials', LOGIN_REFUSED);
      }
      if (!verdict.passwordOk) {
        const failures = user.failed_logins + 1;
        if (failures >= lockout.maxFailures) {
          // Each lockout in a row doubles the wait, up to the ceiling; a success resets it.
          const wait = Math.min(lockout.baseSeconds * 2 ** user.lockouts, lockout.maxSeconds);
          await updateUser(call.db, user.tenant_id, user.id, { failed_logins: 0, lockouts: user.lockouts + 1, locked_until: addSeconds(now, wait) }, now);
          call.notes.auditDetail = { refused: 'wrong_password', locked_for_seconds: wait };
        } else {
          await updateUser(call.db, user.tenant_id, user.id, { failed_logins: failures }, now);
          call.notes.auditDetail = { refused: 'wrong_password' };
        }
        return refusal('invalid_credentials', LOGIN_REFUSED);
      }
      const patch: Record<string, unknown> = { failed_logins: 0, lockouts: 0, locked_until: null, last_login_at: now };
      if (verdict.upgradedHash) patch.password_hash = verdict.upgradedHash;
      await updateUser(call.db, user.tenant_id, user.id, patch, now);
      const userAgent = call.headers['user-agent']?.slice(0, 256) ?? null;
      const tokens = await createSession(call.db, { tenantId: user.tenant_id, subjectId: user.id, userAgent }, settings, now);
      call.resourceId = tokens.session_id;
      return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store' } };
    },

    async refreshSession(call) {
      const token = (call.body as { refresh_token: string }).refresh_token;
      if (parseSecret(token) !== 'refresh') throw invalidCredential('The refresh token is malformed.');
      const hash = hashSecret(token);
      const now = clock.now();
      const session = await findByRefreshHash(call.db, hash);
      if (session) {
        call.tenantId = session.tenant_id;
        call.resourceId = session.id;
        if (session.revoked_at !== null || new Date(session.refresh_expires_at) <= now) throw invalidCredential('The session is expired or revoked.');
        const user = await getUser(call.db, session.tenant_id, session.subject_id);
        if (!user || user.disabled) throw invalidCredential('The session is expired or revoked.');
        const tokens = await rotateSession(call.db, session, hash, settings, now);
        // Another request with the same refresh token won the race and rotated it first.
        if (!tokens) throw invalidCredential('The refresh token was already used.');
        return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store' } };
      }
      const rotated = await findRotatedOut(call.db, hash);
      if (!rotated) throw invalidCredential('The refresh token is not valid.');
      // A rotated-out refresh token came back: it leaked. End the whole session (committed).
      await revokeSession(call.db, rotated.tenant_id, rotated.session_id, 'refresh_token_reuse', now);
      call.tenantId = rotated.tenant_id;
      call.resourceId = rotated.session_id;
      call.notes.severity = 'critical';
      call.notes.auditDetail = { event: 'refresh_token_reuse', session_id: rotated.session_id, session_revoked: true };
      deps.logger.warn({ tenantId: rotated.tenant_id, sessionId: rotated.session_id }, 'refresh token reused: session revoked');
      return refusal('invalid_credentials', 'The refresh token was already used; the session has been revoked.');
    },

    async logout(call) {
      const { tenantId, sessionId } = sessionOf(call);
      call.tenantId = tenantId;
      call.resourceId = sessionId;
      await revokeSession(call.db, tenantId, sessionId, 'logout', clock.now());
      return { status: 204 };
    },

    async logoutAll(call) {
      const { tenantId, subjectId } = sessionOf(call);
      call.tenantId = tenantId;
      call.resourceId = subjectId;
      const revoked = await revokeSubjectSessions(call.db, tenantId, subjectId, 'logout_all', clock.now());
      call.notes.auditDetail = { sessions_revoked: revoked };
      return { status: 204 };
    },

    async listSessions(call) {
      const principal = principalOf(call);
      const page = pageOf(call);
      const current = principal.credential.kind === 'session' ? principal.credential.id : undefined;
      const items = await listActiveSessions(call.db, principal.tenantId, principal.subjectId, clock.now(), { fetch: page.fetch, ...(page.afterId !== undefined ? { afterId: page.afterId } : {}) }, current);
      return { status: 200, body: { items } };
    },
  };
}
