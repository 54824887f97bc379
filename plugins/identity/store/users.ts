import type { Knex } from 'knex';
import { isUniqueViolation } from '../../../kernel/plugin/api.js';
import { ApiError } from '../../../kernel/errors.js';
import { iso, isoOrNull } from '../time.js';

type Db = Knex | Knex.Transaction;

export interface UserRow {
  tenant_id: string;
  id: string;
  username: string;
  email: string | null;
  display_name: string | null;
  password_hash: string;
  roles: string[];
  disabled: boolean;
  failed_logins: number;
  lockouts: number;
  locked_until: Date | string | null;
  last_login_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A user as the API shows it: never the password hash or the failure counters. */
export interface User {
  id: string;
  tenant_id: string;
  username: string;
  email: string | null;
  display_name: string | null;
  roles: string[];
  disabled: boolean;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export function toUser(row: UserRow, now: Date): User {
  const lockedUntil = row.locked_until && new Date(row.locked_until) > now ? iso(row.locked_until) : null;
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    username: row.username,
    email: row.email,
    display_name: row.display_name,
    roles: row.roles,
    disabled: row.disabled,
    locked_until: lockedUntil,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    last_login_at: isoOrNull(row.last_login_at),
  };
}

export interface NewUser {
  id: string;
  username: string;
  passwordHash: string;
  roles: string[];
  email?: string | null;
  displayName?: string | null;
}

export async function findUserByName(db: Db, tenantId: string, username: string): Promise<UserRow | undefined> {
  return db('identity_users')
    .where({ tenant_id: tenantId })
    .andWhereRaw('lower(username) = lower(?)', [username])
    .first();
}

export async function getUser(db: Db, tenantId: string, id: string, forUpdate = false): Promise<UserRow | undefined> {
  const query = db('identity_users').where({ tenant_id: tenantId, id }).first();
  if (forUpdate) query.forUpdate();
  return query;
}

export async function listUsers(
  db: Db,
  tenantId: string,
  filter: { afterId?: string; fetch: number; disabled?: boolean },
): Promise<UserRow[]> {
  const query = db('identity_users').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(filter.fetch);
  if (filter.afterId !== undefined) query.andWhere('id', '>', filter.afterId);
  if (filter.disabled !== undefined) query.andWhere('disabled', filter.disabled);
  return query;
}

export async function insertUser(db: Db, tenantId: string, user: NewUser, now: Date): Promise<UserRow> {
  try {
    const [row] = await db('identity_users')
      .insert({
        tenant_id: tenantId,
        id: user.id,
        username: user.username,
        email: user.email ?? null,
        display_name: user.displayName ?? null,
        password_hash: user.passwordHash,
        roles: user.roles,
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    return row as UserRow;
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(
        'duplicate_identifier',
        `A user with id "${user.id}" or username "${user.username}" already exists.`,
      );
    throw err;
  }
}

export async function updateUser(
  db: Db,
  tenantId: string,
  id: string,
  patch: Record<string, unknown>,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await db('identity_users')
    .where({ tenant_id: tenantId, id })
    .update({ ...patch, updated_at: now })
    .returning('*');
  return row as UserRow | undefined;
}

// RETURNING: knex-pglite answers a bare DELETE with its raw result, not a row count.
export async function deleteUser(db: Db, tenantId: string, id: string): Promise<boolean> {
  return (await db('identity_users').where({ tenant_id: tenantId, id }).delete().returning('id')).length > 0;
}

/** How many of the tenant's users are enabled and hold at least one of these roles. */
export async function countEnabledUsersHolding(db: Db, tenantId: string, roleIds: string[]): Promise<number> {
  const row = (await db('identity_users')
    .where({ tenant_id: tenantId, disabled: false })
    .andWhereRaw('roles && ?::text[]', [roleIds])
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}
