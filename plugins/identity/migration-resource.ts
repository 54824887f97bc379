import { canonicalJson } from '../../kernel/plugin/api.js';
import type { Catalog } from '../../kernel/types.js';
import type { BundleItem, GateCheck, MigrationResource } from '../migration/contract.js';
import type { Role, RoleBook } from './roles.js';

interface RoleContent {
  description: string;
  permissions: string[];
}

function contentOf(item: BundleItem): RoleContent {
  const c = item.content;
  return {
    description: typeof c.description === 'string' ? c.description : '',
    permissions: Array.isArray(c.permissions) ? c.permissions.map(String) : [],
  };
}

/**
 * A tenant's custom roles (never the built-in ones, which every deployment derives from its
 * plugins) as a promotion resource. An update rewrites the role's permissions for everyone who
 * holds it; a delete (allow_destructive) strips the name from its holders, as DELETE /roles does.
 * The gate's `roles_grantable` applies the rule of POST /roles to whoever plans and applies:
 * a role the bundle creates or changes grants only permissions this deployment declares and
 * the actor holds, so a promotion never hands out more than its author has.
 */
export function roleResource(roles: RoleBook, catalog: Catalog): MigrationResource {
  return {
    kind: 'roles',
    order: 5,
    async export(db, tenantId) {
      const all: Role[] = [];
      for (let page = await roles.listCustom(db, tenantId, undefined, 500); page.length > 0; ) {
        all.push(...page);
        page = page.length < 500 ? [] : await roles.listCustom(db, tenantId, page[page.length - 1]?.id, 500);
      }
      return all.map((r) => ({ id: r.id, content: { description: r.description, permissions: r.permissions } }));
    },
    checks(bundle, target, context) {
      const current = new Map(target.map((t) => [t.id, canonicalJson(t.content)]));
      const problems: string[] = [];
      for (const item of bundle) {
        if (current.get(item.id) === canonicalJson(item.content)) continue;
        if (roles.isBuiltIn(item.id)) {
          problems.push(`${item.id} is a built-in role here`);
          continue;
        }
        const { permissions } = contentOf(item);
        const undeclared = permissions.filter((p) => !catalog.permissions.has(p));
        const unheld = permissions.filter((p) => catalog.permissions.has(p) && !context.actorPermissions.has(p));
        if (undeclared.length > 0)
          problems.push(`${item.id} grants ${undeclared.join(', ')}, which no enabled plugin declares`);
        if (unheld.length > 0) problems.push(`${item.id} grants ${unheld.join(', ')}, which you do not hold`);
      }
      const check: GateCheck = {
        check: 'roles_grantable',
        ok: problems.length === 0,
        detail:
          problems.length === 0
            ? 'every role the bundle creates or changes grants only permissions declared here and held by you'
            : problems.join('; '),
      };
      return [check];
    },
    async apply(trx, tenantId, changes, now) {
      for (const item of changes.create) await roles.insert(trx, tenantId, { id: item.id, ...contentOf(item) }, now);
      for (const item of changes.update) await roles.replace(trx, tenantId, { id: item.id, ...contentOf(item) });
      for (const id of changes.delete) await roles.remove(trx, tenantId, id, now);
    },
  };
}
