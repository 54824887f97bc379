import type { Knex } from 'knex';
import { ACCOUNT_PERMISSION } from '../../kernel/plugin/api.js';
import type { Catalog } from '../../kernel/types.js';
import { iso } from './time.js';
import { deleteRole, findCustomRoles, insertRole, listCustomRoles, replaceRole, type RoleRow } from './store/roles.js';

export const ACCOUNT_ADMIN_ROLE = 'account-admin';

export interface Role {
  id: string;
  tenant_id: string | null;
  description: string;
  permissions: string[];
  built_in: boolean;
  created_at: string | null;
}

function isIdentityOrAccount(permission: string): boolean {
  return permission === ACCOUNT_PERMISSION || permission.startsWith('runtime:identity:');
}

/**
 * Built-in roles, derived from the permissions the enabled plugins declare, so a new plugin's
 * permissions land in the right roles without editing this list:
 * - viewer: every `…:read` permission;
 * - operator: viewer + the permissions of mutating routes in the `operate` category (supervisor actions);
 * - builder: viewer + every `…:write` permission outside identity;
 * - admin: every permission of the tenant (everything but account-wide scope);
 * - account-admin: everything, in every tenant (the bootstrap admin holds it).
 */
export function builtInRoles(catalog: Catalog): Map<string, Role> {
  const all = [...catalog.permissions.keys()].sort();
  const reads = all.filter((p) => p.endsWith(':read'));
  const operate = new Set<string>();
  for (const route of catalog.routes) {
    const permission = route.decl.permission;
    if (
      route.mutating &&
      route.decl.category === 'operate' &&
      catalog.permissions.has(permission) &&
      !isIdentityOrAccount(permission)
    )
      operate.add(permission);
  }
  const writes = all.filter((p) => p.endsWith(':write') && !isIdentityOrAccount(p));
  const role = (id: string, description: string, permissions: Iterable<string>): [string, Role] => [
    id,
    {
      id,
      tenant_id: null,
      description,
      permissions: [...new Set(permissions)].sort(),
      built_in: true,
      created_at: null,
    },
  ];
  return new Map([
    role(ACCOUNT_ADMIN_ROLE, 'Every permission in every tenant, including tenant management.', all),
    role(
      'admin',
      'Every permission within the tenant.',
      all.filter((p) => p !== ACCOUNT_PERMISSION),
    ),
    role('builder', 'Read everything; create and change resources outside identity.', [...reads, ...writes]),
    role('operator', 'Read everything; run supervisor actions.', [...reads, ...operate]),
    role('viewer', 'Read everything.', reads),
  ]);
}

function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    description: row.description,
    permissions: [...row.permissions].sort(),
    built_in: false,
    created_at: iso(row.created_at),
  };
}

/** Resolves role names to permissions: built-ins from memory, a tenant's custom roles from the database. */
export class RoleBook {
  constructor(readonly builtIns: ReadonlyMap<string, Role>) {}

  isBuiltIn(id: string): boolean {
    return this.builtIns.has(id);
  }

  /**
   * The roles that exist among `names` for the tenant, and the names that do not. `lock` (for
   * a grant) holds the custom roles' rows until the transaction ends, so a concurrent delete
   * either strips the name from the new holder after this commits or runs first and leaves the
   * name unknown: a grant never stores the name of a role deleted meanwhile.
   */
  async resolve(
    db: Knex | Knex.Transaction,
    tenantId: string,
    names: readonly string[],
    lock = false,
  ): Promise<{ roles: Role[]; unknown: string[] }> {
    const roles: Role[] = [];
    const custom: string[] = [];
    for (const name of names) {
      const builtIn = this.builtIns.get(name);
      if (builtIn) roles.push(builtIn);
      else custom.push(name);
    }
    let found: Role[] = [];
    if (custom.length > 0) found = (await findCustomRoles(db, tenantId, custom, lock)).map(toRole);
    roles.push(...found);
    const foundIds = new Set(found.map((r) => r.id));
    return { roles, unknown: custom.filter((n) => !foundIds.has(n)) };
  }

  async permissionsOf(db: Knex | Knex.Transaction, tenantId: string, names: readonly string[]): Promise<Set<string>> {
    const { roles } = await this.resolve(db, tenantId, names);
    return new Set(roles.flatMap((r) => r.permissions));
  }

  async listCustom(
    db: Knex | Knex.Transaction,
    tenantId: string,
    afterId: string | undefined,
    fetch: number,
  ): Promise<Role[]> {
    return (await listCustomRoles(db, tenantId, afterId, fetch)).map(toRole);
  }

  async insert(
    db: Knex | Knex.Transaction,
    tenantId: string,
    role: { id: string; description: string; permissions: string[] },
    now: Date,
  ): Promise<Role> {
    return toRole(await insertRole(db, tenantId, role, now));
  }

  /** Rewrites a custom role's description and permissions (a promotion's update); its holders keep it. */
  async replace(
    db: Knex | Knex.Transaction,
    tenantId: string,
    role: { id: string; description: string; permissions: string[] },
  ): Promise<void> {
    await replaceRole(db, tenantId, role);
  }

  /**
   * Deletes a custom role and, in the same transaction, strips its name from every holder: the
   * tenant's users (and so their sessions), API tokens and identity providers' default and
   * allowed roles. Names are how holders refer to roles, so a name left behind would hand a
   * role later re-created under it (with other permissions) to its old holders. Stripping
   * rather than versioning roles keeps every check one name lookup, and what a holder shows is
   * exactly what it holds.
   */
  async remove(db: Knex | Knex.Transaction, tenantId: string, id: string, now: Date): Promise<boolean> {
    return deleteRole(db, tenantId, id, now);
  }
}
