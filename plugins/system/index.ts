import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { systemHandlers } from './handlers.js';

export default createPlugin({
  id: 'system',
  manifest: fromRoot('manifests', 'system.json'),
  deps: {
    catalog: coreServices.catalog,
    metrics: coreServices.metrics,
    readiness: coreServices.readiness,
    config: coreServices.config,
  },
  setup: (services) => ({ handlers: systemHandlers(services) }),
});
