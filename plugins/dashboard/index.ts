import { ApiError } from '../../kernel/errors.js';
import { contribute, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { dashboardSections, workflowTrafficSources, type DashboardSection, type DashboardWindow } from './contract.js';
import { componentsSection, recentAuditSection, workflowsSection } from './sections.js';

const WINDOWS: Record<DashboardWindow['name'], number> = { '5m': 5 * 60_000, '1h': 3_600_000, '24h': 86_400_000 };

/**
 * GET /dashboard: a tenant's operations summary, assembled from sections. Offers
 * `dashboard.sections`; builds components, workflows (from stream deliveries) and recent audit
 * itself when those plugins are enabled; alerts, BPMN and workflows' own figures come from
 * their plugins' contributions. Sections run concurrently, each on indexed queries.
 */
export default createPlugin<{ db: typeof coreServices.db; clock: typeof coreServices.clock; config: typeof coreServices.config; extensions: typeof coreServices.extensions }>({
  id: 'dashboard',
  manifest: fromRoot('manifests', 'dashboard.json'),
  deps: { db: coreServices.db, clock: coreServices.clock, config: coreServices.config, extensions: coreServices.extensions },
  setup({ db, clock, config, extensions }) {
    const enabled = new Set(config.plugins.filter((p): p is string => typeof p === 'string'));
    const own: DashboardSection[] = [
      ...(enabled.has('components') ? [componentsSection] : []),
      ...(enabled.has('streams') ? [workflowsSection(() => extensions.all(workflowTrafficSources)[0])] : []),
      ...(enabled.has('audit') ? [recentAuditSection] : []),
    ];
    return {
      handlers: {
        async getDashboard(call) {
          const name = (call.query.window ?? '1h') as DashboardWindow['name'];
          const span = WINDOWS[name];
          if (!span) throw new ApiError('validation_error', 'window is one of 5m, 1h, 24h.', { details: [{ in: 'query', pointer: '/window', message: 'is not 5m, 1h or 24h' }] });
          const until = clock.now();
          const window: DashboardWindow = { name, since: new Date(until.getTime() - span), until };
          const tenantId = call.tenantId as string;
          // Later contributions replace earlier ones under the same key.
          const sections = new Map<string, DashboardSection>();
          for (const section of extensions.all(dashboardSections)) sections.set(section.key, section);
          const built = await Promise.all([...sections.values()].map(async (s) => [s.key, await s.build(db, tenantId, window)] as const));
          return { status: 200, body: { window: name, since: window.since.toISOString(), until: until.toISOString(), sections: Object.fromEntries(built) } };
        },
      },
      offers: [dashboardSections, workflowTrafficSources],
      contributions: own.map((s) => contribute(dashboardSections, s)),
    };
  },
});
