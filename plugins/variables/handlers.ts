import { ApiError } from '../../kernel/errors.js';
import { operationHandlers, pageOf, type InUse } from '../../kernel/plugin/api.js';
import type { Clock, Handler } from '../../kernel/types.js';
import type { Operations } from './generated/manifest-types.js';
import { VariableStore } from './store.js';

export function variableHandlers(clock: Clock, inUse: InUse): Record<string, Handler> {
  return operationHandlers<Operations>({
    async listVariables(call) {
      const page = pageOf(call);
      const items = await new VariableStore(call.db).list(
        call.tenantId,
        page.fetch,
        page.after ? String(page.after[0]) : undefined,
      );
      return { status: 200, body: { items } };
    },

    async getVariable(call) {
      const variable = await new VariableStore(call.db).get(call.tenantId, call.params.name);
      if (!variable) throw new ApiError('not_found', `No variable "${call.params.name}".`);
      return { status: 200, body: variable };
    },

    async putVariable(call) {
      const body = call.body;
      const store = new VariableStore(call.db);
      const name = call.params.name;
      call.resourceId = name;
      const variable = await store.put(
        call.tenantId,
        name,
        { value: body.value, description: body.description ?? '' },
        clock.now(),
      );
      return { status: 200, body: variable };
    },

    async deleteVariable(call) {
      const name = call.params.name;
      call.resourceId = name;
      const store = new VariableStore(call.db);
      if (!(await store.get(call.tenantId, name, true))) throw new ApiError('not_found', `No variable "${name}".`);
      // A component or deployed workflow still referring to it would fail at its next start: 409 naming each.
      await inUse(call.db, call.tenantId, 'variable', name);
      await store.remove(call.tenantId, name);
      return { status: 204 };
    },
  });
}
