import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { dashboardSections, workflowTrafficSources } from './contract.js';
import { dashboardHandlers } from './handlers.js';

/**
 * GET /dashboard: a tenant's operations summary, assembled from sections. Offers
 * `dashboard.sections`; each section comes from the plugin that owns its data (components,
 * streams' workflow traffic, recent audit, alerts, BPMN), so this plugin reads no other's tables.
 * Sections run concurrently, each on indexed queries.
 */
export default createPlugin<{
  db: typeof coreServices.db;
  clock: typeof coreServices.clock;
  extensions: typeof coreServices.extensions;
}>({
  id: 'dashboard',
  manifest: fromRoot('manifests', 'dashboard.json'),
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    extensions: coreServices.extensions,
  },
  setup({ db, clock, extensions }) {
    return {
      handlers: dashboardHandlers(db, clock, () => extensions.all(dashboardSections)),
      offers: [dashboardSections, workflowTrafficSources],
    };
  },
});
