import {
  contribute,
  coreExtensions,
  coreServices,
  createPlugin,
  fromRoot,
  inUseCheck,
} from '../../kernel/plugin/api.js';
import { alertSignals } from '../alerts/contract.js';
import { dashboardSections } from '../dashboard/contract.js';
import { componentFailed } from './alert-signal.js';
import { passthroughType } from './builtin-types.js';
import { componentsSection } from './dashboard-section.js';
import { sqlTables } from '../sql/contract.js';
import { componentSqlTables } from './sql-tables.js';
import { componentDirectoryReceivers, componentPublisher, componentTypes, stageTimings } from './contract.js';
import { componentHandlers } from './handlers.js';
import { migrationResources } from '../migration/contract.js';
import { componentResource } from './migration-resource.js';
import { createComponents } from './migrations/001_components.js';
import { addComponentTypes } from './migrations/002_component_types.js';
import { stopMeansStop } from './migrations/003_stop_means_stop.js';
import { publishDirectory } from './directory.js';
import { ComponentsService } from './service.js';
import { ComponentStore } from './store.js';
import { sourceSupervisor } from './supervisor.js';
import { componentTypeHandlers } from './types-handler.js';
import type { Settings } from './generated/manifest-types.js';

/**
 * Components (configured instances of component types) and the extension points through which
 * plugins contribute component types (`components.types`), the stream publisher sources append
 * through (`components.publisher`) and receivers of the component directory (`components.directory`).
 * Source components run under the supervisor (supervisor.ts) on the instance holding their lease.
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    extensions: typeof coreServices.extensions;
    secrets: typeof coreServices.secrets;
    events: typeof coreServices.events;
    jobs: typeof coreServices.jobs;
    metrics: typeof coreServices.metrics;
    logs: typeof coreServices.logs;
  },
  Settings
>({
  id: 'components',
  manifest: fromRoot('manifests', 'components.json'),
  migrations: [createComponents, addComponentTypes, stopMeansStop],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    extensions: coreServices.extensions,
    secrets: coreServices.secrets,
    events: coreServices.events,
    jobs: coreServices.jobs,
    logs: coreServices.logs,
    metrics: coreServices.metrics,
  },
  setup({ db, clock, extensions, secrets, events, jobs, logs, metrics }, { settings }) {
    const service = new ComponentsService(extensions, secrets);
    const supervisor = sourceSupervisor({
      db,
      service,
      events,
      jobs,
      logs,
      intervalMs: settings.supervisor_interval_ms ?? 2000,
      timings: stageTimings(metrics),
    });
    return {
      handlers: {
        ...componentHandlers(clock, service, events, inUseCheck(extensions)),
        ...componentTypeHandlers(extensions),
      },
      offers: [componentTypes, componentPublisher, componentDirectoryReceivers],
      contributions: [
        contribute(componentTypes, passthroughType),
        contribute(coreExtensions.jobs, supervisor.spec),
        contribute(coreExtensions.dependents, {
          of: async (d, tenantId, resource) =>
            (await new ComponentStore(d).using(tenantId, resource.kind, resource.id)).map((c) => ({
              kind: 'component',
              ...c,
            })),
        }),
        contribute(migrationResources, componentResource(service)),
        // Its figures for the dashboard and the alerts plugin (ignored when those are disabled).
        contribute(dashboardSections, componentsSection),
        contribute(alertSignals, componentFailed),
        // The SQL console reads a tenant's components.
        ...componentSqlTables.map((table) => contribute(sqlTables, table)),
      ],
      start: async () => {
        await service.warmUp();
        publishDirectory(service, extensions.all(componentDirectoryReceivers));
        supervisor.start();
      },
      stop: async () => supervisor.stop(),
    };
  },
});
