import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { componentTypes } from './contract.js';
import { componentHandlers } from './handlers.js';
import { createComponents } from './migrations/001_components.js';
import { componentTypeHandlers } from './types-handler.js';

/** Components and the extension point through which plugins contribute component types. */
export default createPlugin({
  id: 'components',
  manifest: fromRoot('manifests', 'components.json'),
  migrations: [createComponents],
  deps: { clock: coreServices.clock, extensions: coreServices.extensions },
  setup: ({ clock, extensions }) => ({
    handlers: { ...componentHandlers(clock), ...componentTypeHandlers(extensions) },
    offers: [componentTypes],
  }),
});
