import { isUniqueViolation, operationHandlers } from '../../../kernel/plugin/api.js';
import { ApiError } from '../../../kernel/errors.js';
import type { Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { keepingAnAccountAdmin } from '../last-admin.js';
import { requireTenant } from '../store/tenants.js';
import { assertPermissionsHeld, pageOf } from './common.js';

export function roleHandlers(deps: IdentityDeps): Record<string, Handler> {
  const builtIns = [...deps.roles.builtIns.values()].sort((a, b) => (a.id < b.id ? -1 : 1));

  return operationHandlers<Operations>({
    async listRoles(call) {
      const page = pageOf(call);
      const after = page.afterId;
      // One keyset over the union of built-in roles (in memory) and the tenant's custom roles.
      const custom = await deps.roles.listCustom(call.db, call.tenantId, after, page.fetch);
      const merged = [...builtIns.filter((r) => after === undefined || r.id > after), ...custom].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      );
      return { status: 200, body: { items: merged.slice(0, page.fetch) } };
    },

    async createRole(call) {
      const { body, tenantId } = call;
      await requireTenant(call.db, tenantId);
      call.resourceId = body.id;
      if (deps.roles.isBuiltIn(body.id)) throw new ApiError('duplicate_identifier', `"${body.id}" is a built-in role.`);
      const undeclared = body.permissions.filter((p) => !deps.catalog.permissions.has(p));
      if (undeclared.length > 0) {
        throw new ApiError(
          'validation_error',
          `Undeclared permission${undeclared.length > 1 ? 's' : ''}: ${undeclared.join(', ')}.`,
          {
            details: undeclared.map((p) => ({
              in: 'body',
              pointer: `/permissions/${body.permissions.indexOf(p)}`,
              message: `no enabled plugin declares ${p}`,
            })),
          },
        );
      }
      // Whoever may create roles could otherwise write themselves (or anyone) a role with more.
      assertPermissionsHeld(call, body.permissions, 'The role would grant');
      try {
        const role = await deps.roles.insert(
          call.db,
          tenantId,
          { id: body.id, description: body.description ?? '', permissions: body.permissions },
          deps.clock.now(),
        );
        return { status: 201, body: role, headers: { Location: `/roles/${body.id}` } };
      } catch (err) {
        if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `A role "${body.id}" already exists.`);
        throw err;
      }
    },

    async deleteRole(call) {
      const { id } = call.params;
      call.resourceId = id;
      if (deps.roles.isBuiltIn(id))
        throw new ApiError('bad_request', `"${id}" is a built-in role and cannot be deleted.`);
      const { tenantId } = call;
      const removed = await keepingAnAccountAdmin(call, deps, tenantId, () =>
        deps.roles.remove(call.db, tenantId, id, deps.clock.now()),
      );
      if (!removed) throw new ApiError('not_found', `No role "${id}".`);
      return { status: 204 };
    },
  });
}
