import type { Knex } from 'knex';
import { ACCOUNT_PERMISSION } from '../../../kernel/plugin/api.js';
import type { Authenticator, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { hashSecret, hasPrefix, parseSecret, sameHash } from '../tokens/format.js';
import { authorizationCredential, invalidCredential } from './credentials.js';
import { heldSessions } from './held.js';
import { sessionByAccessHash } from '../store/session-holders.js';

interface SessionLookup extends SessionHolder {
  id: string;
  tenant_id: string;
  subject_id: string;
  access_hash: string;
  access_expires_at: Date | string;
  revoked_at: Date | string | null;
  email: string | null;
  session_email: string | null;
}

/**
 * Who holds a session: a user (password sign-in), or a subject of an identity provider (single
 * sign-on in a browser), whose roles were mapped from its ID token at sign-in and kept with the
 * session; there is no user row for it.
 */
export interface SessionHolder {
  provider_id: string | null;
  session_roles: string[] | null;
  user_id: string | null;
  roles: string[] | null;
  disabled: boolean | null;
  provider_enabled: boolean | null;
}

/** A user's session holds while the user exists and is enabled; a provider's while the provider exists and is enabled. */
export function holderActive(row: SessionHolder): boolean {
  return row.provider_id === null ? row.user_id !== null && row.disabled === false : row.provider_enabled === true;
}

export function sessionRoles(row: SessionHolder): string[] {
  return (row.provider_id === null ? row.roles : row.session_roles) ?? [];
}

/** A tenant's provider never grants account-wide scope (as for its JWTs, authenticators/oidc.ts). */
export function withoutAccountScope(permissions: ReadonlySet<string>): ReadonlySet<string> {
  if (!permissions.has(ACCOUNT_PERMISSION)) return permissions;
  const copy = new Set(permissions);
  copy.delete(ACCOUNT_PERMISSION);
  return copy;
}

/**
 * `Authorization: Bearer sess_…`. Validity is read from the database on every request (one
 * indexed join), never cached, so a logout on one instance is seen by all at the next request.
 */
export function sessionAuthenticator(deps: IdentityDeps): Authenticator {
  return {
    ...heldSessions(deps),
    name: 'session',
    securitySchemes: {
      session: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sess_…',
        description: 'Session access token from POST /auth/login.',
      },
    },
    async authenticate(call) {
      const token = authorizationCredential(call.headers.authorization, 'Bearer');
      if (!token || !hasPrefix(token, 'session')) return null;
      return sessionPrincipal(deps, call.db, token);
    },
  };
}

/**
 * The principal of a session access token (`sess_…`), however it was sent (Authorization header
 * or the browser's cookie); invalid_credentials when it is unknown, expired or revoked.
 */
export async function sessionPrincipal(deps: IdentityDeps, db: Knex, token: string): Promise<Principal> {
  if (parseSecret(token) !== 'session') throw invalidCredential('The session token is malformed.');
  const hash = hashSecret(token);
  const row = await sessionByAccessHash<SessionLookup>(db, hash);
  const now = deps.clock.now();
  if (
    !row ||
    !sameHash(row.access_hash, hash) ||
    row.revoked_at !== null ||
    !holderActive(row) ||
    new Date(row.access_expires_at) <= now
  ) {
    throw invalidCredential('The session token is expired or revoked.');
  }
  const roles = sessionRoles(row);
  const permissions = await deps.roles.permissionsOf(db, row.tenant_id, roles);
  const principal: Principal = {
    subjectId: row.subject_id,
    tenantId: row.tenant_id,
    credential: { kind: 'session', id: row.id },
    roles,
    permissions: row.provider_id === null ? permissions : withoutAccountScope(permissions),
  };
  const email = row.provider_id === null ? row.email : row.session_email;
  if (email) principal.email = email;
  return principal;
}
