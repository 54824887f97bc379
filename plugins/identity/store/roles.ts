import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A tenant's custom role as stored (identity_roles); roles.ts turns it into a Role. */
export interface RoleRow {
  tenant_id: string;
  id: string;
  description: string;
  permissions: string[];
  created_at: Date | string;
}

/** The tenant's custom roles among `ids`; `lock` holds their rows (FOR SHARE) until the transaction ends. */
export async function findCustomRoles(
  db: Db,
  tenantId: string,
  ids: readonly string[],
  lock: boolean,
): Promise<RoleRow[]> {
  const query = db('identity_roles').where({ tenant_id: tenantId }).whereIn('id', ids);
  if (lock) query.forShare();
  return (await query) as RoleRow[];
}

/** A page of the tenant's custom roles by id. */
export async function listCustomRoles(
  db: Db,
  tenantId: string,
  afterId: string | undefined,
  fetch: number,
): Promise<RoleRow[]> {
  const query = db('identity_roles').where({ tenant_id: tenantId }).orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return (await query) as RoleRow[];
}

/** The ids of the tenant's custom roles that grant `permission`. */
export async function customRolesGranting(db: Db, tenantId: string, permission: string): Promise<string[]> {
  return (await db('identity_roles')
    .where({ tenant_id: tenantId })
    .andWhereRaw('? = ANY(permissions)', [permission])
    .pluck('id')) as string[];
}

export async function insertRole(
  db: Db,
  tenantId: string,
  role: { id: string; description: string; permissions: string[] },
  now: Date,
): Promise<RoleRow> {
  const [row] = (await db('identity_roles')
    .insert({ tenant_id: tenantId, ...role, created_at: now })
    .returning('*')) as RoleRow[];
  return row as RoleRow;
}

export async function replaceRole(
  db: Db,
  tenantId: string,
  role: { id: string; description: string; permissions: string[] },
): Promise<void> {
  await db('identity_roles')
    .where({ tenant_id: tenantId, id: role.id })
    .update({ description: role.description, permissions: role.permissions });
}

/**
 * Deletes a custom role and strips its name from every holder: the tenant's users, API tokens
 * and identity providers' default and allowed roles (roles.ts, RoleBook.remove, says why).
 * False when there was no such role.
 */
// RETURNING: knex-pglite answers a bare DELETE with its raw result, not a row count.
export async function deleteRole(db: Db, tenantId: string, id: string, now: Date): Promise<boolean> {
  if ((await db('identity_roles').where({ tenant_id: tenantId, id }).delete().returning('id')).length === 0)
    return false;
  const holding = (column: string) => db.raw('? = ANY(??)', [id, column]);
  const without = (column: string) => db.raw('array_remove(??, ?)', [column, id]);
  await db('identity_users')
    .where({ tenant_id: tenantId })
    .andWhere(holding('roles'))
    .update({ roles: without('roles'), updated_at: now });
  await db('identity_api_tokens')
    .where({ tenant_id: tenantId })
    .andWhere(holding('roles'))
    .update({ roles: without('roles') });
  await db('identity_providers')
    .where({ tenant_id: tenantId })
    .andWhere((q) => q.where(holding('default_roles')).orWhere(holding('allowed_roles')))
    .update({ default_roles: without('default_roles'), allowed_roles: without('allowed_roles'), updated_at: now });
  return true;
}
