import { ApiError } from '../../../kernel/errors.js';
import type { CallOf } from '../../../kernel/plugin/api.js';
import type { Call, Reply } from '../../../kernel/types.js';
import { invalidCredential } from '../authenticators/credentials.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { loginVerdict } from '../passwords/step.js';
import {
  createSession,
  findByRefreshHash,
  findRotatedOut,
  type IssuedTokens,
  revokeSession,
  rotateSession,
  type SessionRow,
} from '../store/sessions.js';
import { getProvider } from '../store/providers.js';
import { getUser, updateUser, type UserRow } from '../store/users.js';
import { addSeconds } from '../time.js';
import { hashSecret, parseSecret } from '../tokens/format.js';
import { refusal } from './common.js';

/** Whether the user (or, for single sign-on, the identity provider) the session belongs to is still enabled. */
async function holderActive(db: Call['db'], session: SessionRow): Promise<boolean> {
  if (session.provider_id) {
    const provider = await getProvider(db, session.tenant_id, session.provider_id);
    return provider?.enabled === true;
  }
  const user = await getUser(db, session.tenant_id, session.subject_id);
  return Boolean(user && !user.disabled);
}

/** One answer for unknown user, wrong password, disabled and locked accounts (no enumeration). */
const LOGIN_REFUSED = 'Invalid tenant, username or password.';

/** A sign-in or refresh: refused (a reply to send as it is) or the session's new tokens. */
export type Refused = { refused: Reply };

/** A password sign-in, for Bearer tokens (login) or for a browser's cookies (browserLogin). */
type SignInCall = CallOf<Operations['login']> | CallOf<Operations['browserLogin']>;

/**
 * Password sign-in and refresh, shared by the token routes (/auth/login, /auth/refresh) and the
 * browser's cookie routes (/auth/browser/*): one implementation of the lockout, the rotation,
 * the reuse detection and their audit detail.
 */
export function sessionFlows(deps: IdentityDeps): {
  signIn(call: SignInCall): Promise<Refused | { tokens: IssuedTokens; user: UserRow }>;
  refreshWith(call: Call, token: string): Promise<Refused | { tokens: IssuedTokens }>;
} {
  const { settings, clock } = deps;
  const lockout = settings.lockout;

  /**
   * The password sign-in both login routes share (Bearer tokens, or cookies for a browser): the
   * same lockout, counters and audit detail. A refusal is a reply carrying the error body, so
   * the failure counter it wrote still commits.
   */
  async function signIn(call: SignInCall): Promise<{ refused: Reply } | { tokens: IssuedTokens; user: UserRow }> {
    const refused = (code: 'invalid_credentials', message: string) => ({ refused: refusal(code, message) });
    const verdict = loginVerdict(call);
    if (!verdict) throw new ApiError('internal_error', 'the password step did not run');
    call.tenantId = call.body.tenant_id;
    const now = clock.now();
    if (!verdict.user) return refused('invalid_credentials', LOGIN_REFUSED);
    const user = await getUser(call.db, verdict.user.tenantId, verdict.user.id, true);
    call.resourceId = verdict.user.id;
    // A password changed since the check, a lock or a disabled account: refused, not counted.
    if (!user || user.password_hash !== verdict.user.checkedHash) return refused('invalid_credentials', LOGIN_REFUSED);
    if (user.locked_until !== null && new Date(user.locked_until) > now) {
      call.notes.auditDetail = { refused: 'locked' };
      return refused('invalid_credentials', LOGIN_REFUSED);
    }
    if (user.disabled) {
      call.notes.auditDetail = { refused: 'disabled' };
      return refused('invalid_credentials', LOGIN_REFUSED);
    }
    if (!verdict.passwordOk) {
      const failures = user.failed_logins + 1;
      if (failures >= lockout.maxFailures) {
        // Each lockout in a row doubles the wait, up to the ceiling; a success resets it.
        const wait = Math.min(lockout.baseSeconds * 2 ** user.lockouts, lockout.maxSeconds);
        await updateUser(
          call.db,
          user.tenant_id,
          user.id,
          { failed_logins: 0, lockouts: user.lockouts + 1, locked_until: addSeconds(now, wait) },
          now,
        );
        call.notes.auditDetail = { refused: 'wrong_password', locked_for_seconds: wait };
      } else {
        await updateUser(call.db, user.tenant_id, user.id, { failed_logins: failures }, now);
        call.notes.auditDetail = { refused: 'wrong_password' };
      }
      return refused('invalid_credentials', LOGIN_REFUSED);
    }
    const patch: Record<string, unknown> = { failed_logins: 0, lockouts: 0, locked_until: null, last_login_at: now };
    if (verdict.upgradedHash) patch.password_hash = verdict.upgradedHash;
    await updateUser(call.db, user.tenant_id, user.id, patch, now);
    const userAgent = call.headers['user-agent']?.slice(0, 256) ?? null;
    const tokens = await createSession(
      call.db,
      { tenantId: user.tenant_id, subjectId: user.id, userAgent },
      settings,
      now,
    );
    call.resourceId = tokens.session_id;
    return { tokens, user };
  }

  /**
   * Rotates both tokens of the session a refresh token belongs to. A rotated-out token coming
   * back revokes the session (committed: the refusal is a reply, not a throw).
   */
  async function refreshWith(call: Call, token: string): Promise<{ refused: Reply } | { tokens: IssuedTokens }> {
    if (parseSecret(token) !== 'refresh') throw invalidCredential('The refresh token is malformed.');
    const hash = hashSecret(token);
    const now = clock.now();
    const session = await findByRefreshHash(call.db, hash);
    if (session) {
      call.tenantId = session.tenant_id;
      call.resourceId = session.id;
      if (session.revoked_at !== null || new Date(session.refresh_expires_at) <= now)
        throw invalidCredential('The session is expired or revoked.');
      if (!(await holderActive(call.db, session))) throw invalidCredential('The session is expired or revoked.');
      const tokens = await rotateSession(call.db, session, hash, settings, now);
      // Another request with the same refresh token won the race and rotated it first.
      if (!tokens) throw invalidCredential('The refresh token was already used.');
      return { tokens };
    }
    const rotated = await findRotatedOut(call.db, hash);
    if (!rotated) throw invalidCredential('The refresh token is not valid.');
    // A rotated-out refresh token came back: it leaked. End the whole session (committed).
    await revokeSession(call.db, rotated.tenant_id, rotated.session_id, 'refresh_token_reuse', now);
    call.tenantId = rotated.tenant_id;
    call.resourceId = rotated.session_id;
    call.notes.severity = 'critical';
    call.notes.auditDetail = { event: 'refresh_token_reuse', session_id: rotated.session_id, session_revoked: true };
    deps.logger.warn(
      { tenantId: rotated.tenant_id, sessionId: rotated.session_id },
      'refresh token reused: session revoked',
    );
    return {
      refused: refusal('invalid_credentials', 'The refresh token was already used; the session has been revoked.'),
    };
  }

  return { signIn, refreshWith };
}
