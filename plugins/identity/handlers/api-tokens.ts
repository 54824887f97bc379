import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { minterOf } from '../minters.js';
import { listTokens, mintToken, revokeToken } from '../store/api-tokens.js';
import { requireTenant } from '../store/tenants.js';
import { addSeconds } from '../time.js';
import { assertGrantable, pageOf } from './common.js';

export function apiTokenHandlers(deps: IdentityDeps): Record<string, Handler> {
  return operationHandlers<Operations>({
    async listApiTokens(call) {
      const page = pageOf(call);
      return { status: 200, body: { items: await listTokens(call.db, call.tenantId, page.afterId, page.fetch) } };
    },

    async mintApiToken(call) {
      const { body, tenantId } = call;
      await requireTenant(call.db, tenantId);
      await assertGrantable(call, deps, tenantId, body.roles);
      const minter = await minterOf(call, deps);
      const now = deps.clock.now();
      const days = body.expires_in_days ?? deps.settings.apiTokenDefaultDays;
      const minted = await mintToken(
        call.db,
        tenantId,
        {
          name: body.name,
          roles: body.roles,
          readOnly: body.read_only === true,
          expiresAt: days === null ? null : addSeconds(now, days * 86400),
          createdBy: call.principal.subjectId,
          minter,
        },
        now,
      );
      call.resourceId = minted.token.id;
      return {
        status: 201,
        body: minted,
        headers: { 'Cache-Control': 'no-store', Location: `/api-tokens/${minted.token.id}` },
      };
    },

    async revokeApiToken(call) {
      const { id } = call.params;
      call.resourceId = id;
      if (!(await revokeToken(call.db, call.tenantId, id, deps.clock.now())))
        throw new ApiError('not_found', `No API token "${id}".`);
      return { status: 204 };
    },
  });
}
