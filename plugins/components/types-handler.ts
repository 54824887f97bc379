import { operationHandlers, pageOf, type Extensions } from '../../kernel/plugin/api.js';
import type { Handler } from '../../kernel/types.js';
import { componentTypes } from './contract.js';
import type { Operations } from './generated/manifest-types.js';

/** GET /component-types: what the enabled plugins contributed, by name; a disabled plugin's types are absent. */
export function componentTypeHandlers(extensions: Extensions): Record<string, Handler> {
  return operationHandlers<Operations>({
    listComponentTypes(call) {
      const page = pageOf(call);
      const after = page.after ? String(page.after[0]) : undefined;
      const kind = call.query.kind;
      const items = extensions
        .entries(componentTypes)
        .map(({ plugin, value }) => ({
          name: value.name,
          kind: value.kind,
          plugin,
          ...(value.summary ? { summary: value.summary } : {}),
          config_schema: value.config_schema,
        }))
        .filter((t) => (kind === undefined || t.kind === kind) && (after === undefined || t.name > after))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { status: 200, body: { items: items.slice(0, page.fetch) } };
    },
  });
}
