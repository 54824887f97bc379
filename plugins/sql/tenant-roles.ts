import type { Knex } from 'knex';
import type { SecretStore } from '../../kernel/types.js';
import type { SqlTable } from './contract.js';
import { ensureGroup, ensureTenantRole, rolePassword, tenantRole } from './roles.js';

export interface TenantRoleOptions {
  schema: string;
  statementTimeoutMs: number;
  /** The most console queries a tenant runs at once (its role's connection limit adds two). */
  maxConcurrentPerTenant: number;
}

/** Runs `make` once while it is pending or has succeeded; a failure is forgotten, so the next call tries again. */
function once<T>(make: () => Promise<T>, keep: (p: Promise<T> | undefined) => void): Promise<T> {
  const pending = make();
  keep(pending);
  pending.catch(() => keep(undefined));
  return pending;
}

/**
 * The login role a tenant's console queries run as on PostgreSQL (roles.ts): the group role and
 * its views are made once per process, each tenant's role once per tenant; the password is
 * derived from the instance's key, so every instance computes the same one.
 */
export function tenantRoles(
  db: Knex,
  secrets: SecretStore,
  tables: () => readonly SqlTable[],
  options: TenantRoleOptions,
): (tenantId: string) => Promise<{ role: string; password: string }> {
  let group: Promise<string[]> | undefined;
  const roles = new Map<string, Promise<string>>();
  return async (tenantId) => {
    const key = await secrets.key('sql-console-roles');
    await (group ??
      once(
        () => ensureGroup(db, options.schema, tables()),
        (p) => (group = p),
      ));
    const password = rolePassword(key, tenantRole(options.schema, tenantId));
    const role = await (roles.get(tenantId) ??
      once(
        () =>
          ensureTenantRole(db, options.schema, tenantId, password, {
            statementTimeoutMs: options.statementTimeoutMs,
            connectionLimit: options.maxConcurrentPerTenant + 2,
          }),
        (p) => (p ? roles.set(tenantId, p) : roles.delete(tenantId)),
      ));
    return { role, password };
  };
}
