import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { passthroughType } from './builtin-types.js';
import { componentDirectoryReceivers, componentPublisher, componentTypes } from './contract.js';
import { componentHandlers } from './handlers.js';
import { migrationResources } from '../migration/contract.js';
import { componentResource } from './migration-resource.js';
import { createComponents } from './migrations/001_components.js';
import { addComponentTypes } from './migrations/002_component_types.js';
import { ComponentsService } from './service.js';
import { ComponentStore } from './store.js';
import { sourceSupervisor } from './supervisor.js';
import { componentTypeHandlers } from './types-handler.js';

interface ComponentsSettings {
  /** How often the supervisor looks at a source that should run but whose run ended (ms). */
  supervisor_interval_ms: number;
}

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
    logs: typeof coreServices.logs;
  },
  ComponentsSettings
>({
  id: 'components',
  manifest: fromRoot('manifests', 'components.json'),
  migrations: [createComponents, addComponentTypes],
  deps: { db: coreServices.db, clock: coreServices.clock, extensions: coreServices.extensions, secrets: coreServices.secrets, events: coreServices.events, jobs: coreServices.jobs, logs: coreServices.logs },
  setup({ db, clock, extensions, secrets, events, jobs, logs }, { settings }) {
    const service = new ComponentsService(extensions, secrets);
    const supervisor = sourceSupervisor({ db, service, events, jobs, logs, intervalMs: settings.supervisor_interval_ms ?? 2000 });
    return {
      handlers: { ...componentHandlers(clock, service, events), ...componentTypeHandlers(extensions) },
      offers: [componentTypes, componentPublisher, componentDirectoryReceivers],
      contributions: [contribute(componentTypes, passthroughType), contribute(coreExtensions.jobs, supervisor.spec), contribute(migrationResources, componentResource)],
      start: async () => {
        await service.warmUp();
        const directory = service.directory((d, tenantId, id) => new ComponentStore(d).get(tenantId, id));
        for (const receiver of extensions.all(componentDirectoryReceivers)) receiver.receive(directory);
        supervisor.start();
      },
      stop: async () => supervisor.stop(),
    };
  },
});
