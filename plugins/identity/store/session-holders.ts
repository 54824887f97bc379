import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/**
 * Sessions with their holders: the user a password sign-in made the session for, or the identity
 * provider of a single sign-on. The authenticators (authenticators/session.ts, held.ts) decide
 * from these rows; the queries are here.
 */
function withHolders(db: Db) {
  return db('identity_sessions as s')
    .leftJoin('identity_users as u', function joinUser() {
      this.on('u.tenant_id', '=', 's.tenant_id').andOn('u.id', '=', 's.subject_id');
    })
    .leftJoin('identity_providers as p', function joinProvider() {
      this.on('p.tenant_id', '=', 's.tenant_id').andOn('p.id', '=', 's.provider_id');
    });
}

/** The session of an access token's hash with its holder's roles, state and email (the caller checks them). */
export async function sessionByAccessHash<T>(db: Db, hash: string): Promise<T | undefined> {
  return (await withHolders(db)
    .where('s.access_hash', hash)
    .first(
      's.id',
      's.tenant_id',
      's.subject_id',
      's.access_hash',
      's.access_expires_at',
      's.revoked_at',
      's.provider_id',
      's.roles as session_roles',
      's.email as session_email',
      'u.id as user_id',
      'u.roles',
      'u.disabled',
      'u.email',
      'p.enabled as provider_enabled',
    )) as T | undefined;
}

/**
 * Sessions that still hold at `now`: not revoked, within their absolute lifetime, their holder
 * active (the user enabled or, for single sign-on, the provider enabled).
 */
function liveSessions(db: Db, now: Date) {
  return withHolders(db)
    .whereNull('s.revoked_at')
    .where((q) =>
      q.where((user) => user.whereNull('s.provider_id').where('u.disabled', false)).orWhere('p.enabled', true),
    )
    .where('s.max_expires_at', '>', now);
}

/** A held session, if it still holds, with its holder's roles and email. */
export async function liveSession<T>(db: Db, tenantId: string, id: string, now: Date): Promise<T | undefined> {
  return (await liveSessions(db, now)
    .where({ 's.tenant_id': tenantId, 's.id': id })
    .first(
      's.id',
      's.subject_id',
      's.provider_id',
      'u.roles',
      's.roles as session_roles',
      'u.email',
      's.email as session_email',
    )) as T | undefined;
}

/** The ids among these (tenant, session) pairs whose sessions still hold. */
export async function liveSessionIds(db: Db, pairs: Array<[string, string]>, now: Date): Promise<string[]> {
  const rows = (await liveSessions(db, now).whereIn(['s.tenant_id', 's.id'], pairs).select('s.id')) as Array<{
    id: string;
  }>;
  return rows.map((r) => r.id);
}
