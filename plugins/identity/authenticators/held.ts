import type { Knex } from 'knex';
import type { Authenticator, HeldCredential, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';

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
  roles: string[];
  email: string | null;
}

/** A session holds while it is not revoked, its user not disabled and its absolute lifetime not over. */
export function heldSessions(deps: IdentityDeps): Held {
  const live = (db: Knex) =>
    db('identity_sessions as s')
      .join('identity_users as u', function joinUser() {
        this.on('u.tenant_id', '=', 's.tenant_id').andOn('u.id', '=', 's.subject_id');
      })
      .whereNull('s.revoked_at')
      .where('u.disabled', false)
      .where('s.max_expires_at', '>', deps.clock.now());
  return {
    async resume(held, db) {
      const row = (await live(db).where({ 's.tenant_id': held.tenantId, 's.id': held.credential.id }).first('s.id', 's.subject_id', 'u.roles', 'u.email')) as HeldSessionRow | undefined;
      if (!row) return null;
      const principal: Principal = {
        subjectId: row.subject_id,
        tenantId: held.tenantId,
        credential: { kind: 'session', id: row.id },
        roles: row.roles,
        permissions: await deps.roles.permissionsOf(db, held.tenantId, row.roles),
      };
      if (row.email) principal.email = row.email;
      return principal;
    },
    async stillValid(held, db) {
      const rows = (await live(db).whereIn(['s.tenant_id', 's.id'], pairs(held)).select('s.id')) as Array<{ id: string }>;
      return new Set(rows.map((r) => r.id));
    },
  };
}

interface HeldTokenRow {
  id: string;
  roles: string[];
  read_only: boolean;
}

/** An API token holds while it is neither revoked nor expired. */
export function heldApiTokens(deps: IdentityDeps): Held {
  const live = (db: Knex) =>
    db('identity_api_tokens')
      .whereNull('revoked_at')
      .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', deps.clock.now()));
  return {
    async resume(held, db) {
      const row = (await live(db).where({ tenant_id: held.tenantId, id: held.credential.id }).first('id', 'roles', 'read_only')) as HeldTokenRow | undefined;
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
      const rows = (await live(db).whereIn(['tenant_id', 'id'], pairs(held)).select('id')) as Array<{ id: string }>;
      return new Set(rows.map((r) => r.id));
    },
  };
}
