import type { Knex } from 'knex';
import { isUniqueViolation } from '../../../kernel/plugin/api.js';
import { ApiError } from '../../../kernel/errors.js';
import { iso } from '../time.js';

export interface Tenant {
  id: string;
  name: string;
  created_at: string;
}

type Db = Knex | Knex.Transaction;

function toTenant(row: { id: string; name: string; created_at: Date | string }): Tenant {
  return { id: row.id, name: row.name, created_at: iso(row.created_at) };
}

export async function tenantExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await db('identity_tenants').where({ id }).first('id'));
}

/** Every tenant id in order: the kernel's tenant directory (account-wide lists). */
export async function allTenantIds(db: Db): Promise<string[]> {
  return (await db('identity_tenants').orderBy('id', 'asc').pluck('id')) as string[];
}

export async function listTenants(db: Db, afterId: string | undefined, fetch: number): Promise<Tenant[]> {
  const query = db('identity_tenants').orderBy('id', 'asc').limit(fetch);
  if (afterId !== undefined) query.andWhere('id', '>', afterId);
  return (await query).map(toTenant);
}

export async function insertTenant(db: Db, id: string, name: string, now: Date): Promise<Tenant> {
  try {
    const [row] = await db('identity_tenants').insert({ id, name, created_at: now }).returning('*');
    return toTenant(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `A tenant with id "${id}" already exists.`);
    throw err;
  }
}

/** Raises 404 when the tenant a write targets does not exist. */
export async function requireTenant(db: Db, id: string): Promise<void> {
  if (!(await tenantExists(db, id))) throw new ApiError('not_found', `No tenant "${id}".`);
}

/** Locks the tenant's row until the transaction ends (serialises changes of its admins). */
export async function lockTenant(db: Db, id: string): Promise<void> {
  await db('identity_tenants').where({ id }).forUpdate().first('id');
}

/** Creates the tenant unless one of that id exists; whether this call created it. */
export async function insertTenantIfAbsent(db: Db, id: string, name: string, now: Date): Promise<boolean> {
  const inserted = await db('identity_tenants')
    .insert({ id, name, created_at: now })
    .onConflict('id')
    .ignore()
    .returning('id');
  return inserted.length > 0;
}
