import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { componentHandlers } from './handlers.js';
import { createComponents } from './migrations/001_components.js';

export default createPlugin({
  id: 'components',
  manifest: fromRoot('manifests', 'components.json'),
  migrations: [createComponents],
  deps: { clock: coreServices.clock },
  setup: ({ clock }) => ({ handlers: componentHandlers(clock) }),
});
