import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers, slugify } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { insertTenant, listTenants } from '../store/tenants.js';
import { pageOf } from './common.js';

export function tenantHandlers(deps: IdentityDeps): Record<string, Handler> {
  return operationHandlers<Operations>({
    async listTenants(call) {
      const page = pageOf(call);
      return { status: 200, body: { items: await listTenants(call.db, page.afterId, page.fetch) } };
    },

    async createTenant(call) {
      const { body } = call;
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      call.resourceId = id;
      call.tenantId = id;
      const tenant = await insertTenant(call.db, id, body.name, deps.clock.now());
      return { status: 201, body: tenant, headers: { Location: `/tenants/${id}` } };
    },
  });
}
