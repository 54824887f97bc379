import type { Authenticator, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { hashSecret, hasPrefix, parseSecret, sameHash } from '../tokens/format.js';
import { authorizationCredential, invalidCredential } from './credentials.js';
import { heldSessions } from './held.js';

interface SessionLookup {
  id: string;
  tenant_id: string;
  subject_id: string;
  access_hash: string;
  access_expires_at: Date | string;
  revoked_at: Date | string | null;
  roles: string[];
  disabled: boolean;
  email: string | null;
}

/**
 * `Authorization: Bearer sess_…`. Validity is read from the database on every request (one
 * indexed join), never cached, so a logout on one instance is seen by all at the next request.
 */
export function sessionAuthenticator(deps: IdentityDeps): Authenticator {
  return {
    ...heldSessions(deps),
    name: 'session',
    securitySchemes: { session: { type: 'http', scheme: 'bearer', bearerFormat: 'sess_…', description: 'Session access token from POST /auth/login.' } },
    async authenticate(call) {
      const token = authorizationCredential(call.headers.authorization, 'Bearer');
      if (!token || !hasPrefix(token, 'session')) return null;
      if (parseSecret(token) !== 'session') throw invalidCredential('The session token is malformed.');
      const hash = hashSecret(token);
      const row = (await call.db('identity_sessions as s')
        .join('identity_users as u', function joinUser() {
          this.on('u.tenant_id', '=', 's.tenant_id').andOn('u.id', '=', 's.subject_id');
        })
        .where('s.access_hash', hash)
        .first('s.id', 's.tenant_id', 's.subject_id', 's.access_hash', 's.access_expires_at', 's.revoked_at', 'u.roles', 'u.disabled', 'u.email')) as SessionLookup | undefined;
      const now = deps.clock.now();
      if (!row || !sameHash(row.access_hash, hash) || row.revoked_at !== null || row.disabled || new Date(row.access_expires_at) <= now) {
        throw invalidCredential('The session token is expired or revoked.');
      }
      const principal: Principal = {
        subjectId: row.subject_id,
        tenantId: row.tenant_id,
        credential: { kind: 'session', id: row.id },
        roles: row.roles,
        permissions: await deps.roles.permissionsOf(call.db, row.tenant_id, row.roles),
      };
      if (row.email) principal.email = row.email;
      return principal;
    },
  };
}
