import { fromRoot } from '../../kernel/paths.js';
import type { Clock, PluginDefinition } from '../../kernel/types.js';
import { componentHandlers } from './handlers.js';
import { createComponents } from './migrations/001_components.js';

const plugin: PluginDefinition = {
  id: 'components',
  manifest: fromRoot('manifests', 'components.json'),
  migrations: [createComponents],
  setup: (context) => ({ handlers: componentHandlers(context.services.clock as Clock) }),
};
export default plugin;
