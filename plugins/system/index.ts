import { fromRoot } from '../../kernel/paths.js';
import type { PluginDefinition } from '../../kernel/types.js';
import { systemHandlers } from './handlers.js';

const plugin: PluginDefinition = {
  id: 'system',
  manifest: fromRoot('manifests', 'system.json'),
  setup: (context) => ({ handlers: systemHandlers(context) }),
};
export default plugin;
