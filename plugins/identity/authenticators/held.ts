import type { Authenticator, HeldCredential, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { liveToken, liveTokenIds } from '../store/api-tokens.js';
import { liveSession, liveSessionIds } from '../store/session-holders.js';
import { withoutAccountScope } from './session.js';

/**
 * Credentials the kernel holds on to after the request that showed them: a WebSocket ticket
 * names the session or token it was minted with, and open sockets are re-checked about once a
 * second. Both read the database, so a logout or a revocation on any instance reaches them.
 */
type Held = Pick<Authenticator, 'resume' | 'stillValid'>;

function pairs(held: readonly HeldCredential[]): Array<[string, string]> {
  return held.map((h) => [h.tenantId, h.credential.id]);
}

interface HeldSessionRow {
  id: string;
  subject_id: string;
  provider_id: string | null;
  roles: string[] | null;
  session_roles: string[] | null;
  email: string | null;
  session_email: string | null;
}

/**
 * A session holds while it is not revoked, its absolute lifetime is not over and its holder is
 * active: its user enabled, or (single sign-on) its identity provider enabled.
 */
export function heldSessions(deps: IdentityDeps): Held {
  return {
    async resume(held, db) {
      const row = await liveSession<HeldSessionRow>(db, held.tenantId, held.credential.id, deps.clock.now());
      if (!row) return null;
      const fromProvider = row.provider_id !== null;
      const roles = (fromProvider ? row.session_roles : row.roles) ?? [];
      const permissions = await deps.roles.permissionsOf(db, held.tenantId, roles);
      const principal: Principal = {
        subjectId: row.subject_id,
        tenantId: held.tenantId,
        credential: { kind: 'session', id: row.id },
        roles,
        permissions: fromProvider ? withoutAccountScope(permissions) : permissions,
      };
      const email = fromProvider ? row.session_email : row.email;
      if (email) principal.email = email;
      return principal;
    },
    async stillValid(held, db) {
      return new Set(await liveSessionIds(db, pairs(held), deps.clock.now()));
    },
  };
}

/** An API token holds while it is neither revoked nor expired. */
export function heldApiTokens(deps: IdentityDeps): Held {
  return {
    async resume(held, db) {
      const row = await liveToken(db, held.tenantId, held.credential.id, deps.clock.now());
      if (!row) return null;
      return {
        subjectId: row.id,
        tenantId: held.tenantId,
        credential: { kind: 'api_token', id: row.id },
        roles: row.roles,
        permissions: await deps.roles.permissionsOf(db, held.tenantId, row.roles),
        ...(row.read_only ? { readOnly: true } : {}),
      };
    },
    async stillValid(held, db) {
      return new Set(await liveTokenIds(db, pairs(held), deps.clock.now()));
    },
  };
}
