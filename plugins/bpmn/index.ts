import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { migrationResources } from '../migration/contract.js';
import { bpmnDefinitionResource } from './migration-resource.js';
import { bpmnDependents } from './dependents.js';
import { alertSignals } from '../alerts/contract.js';
import { sqlTables } from '../sql/contract.js';
import { bpmnSqlTables } from './sql-tables.js';
import { bpmnPublishers } from './contract.js';
import { incidentsSignal } from './incidents-signal.js';
import { definitionHandlers } from './handlers/definitions.js';
import { instanceHandlers } from './handlers/instances.js';
import { jobHandlers } from './handlers/jobs.js';
import { taskHandlers } from './handlers/tasks.js';
import { JobService } from './jobs.js';
import { createBpmn } from './migrations/001_bpmn.js';
import { snapshotStateText } from './migrations/002_snapshot_state_text.js';
import { createJobs } from './migrations/003_jobs.js';
import { openJobs } from './migrations/004_open_jobs.js';
import type { Settings } from './generated/manifest-types.js';
import { BpmnService } from './service.js';
import { timerJob } from './workers.js';

/**
 * BPMN 2.0 processes run by bpmn-engine, made durable: definitions versioned per process,
 * instances whose engine state is saved at every advance and resumed by whichever kernel moves
 * them next (a row lock is the lease), timers as due rows, script tasks in the sandbox and
 * service tasks through `bpmn.publishers` (the streams plugin contributes `stream:`).
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    logs: typeof coreServices.logs;
    extensions: typeof coreServices.extensions;
    sandbox: typeof coreServices.sandbox;
  },
  Settings
>({
  id: 'bpmn',
  manifest: fromRoot('manifests', 'bpmn.json'),
  migrations: [createBpmn, snapshotStateText, createJobs, openJobs],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    logs: coreServices.logs,
    extensions: coreServices.extensions,
    sandbox: coreServices.sandbox,
  },
  setup({ db, clock, logs, extensions, sandbox }, { settings }) {
    const service = new BpmnService(
      clock,
      logs,
      { sandbox: () => sandbox, publishers: () => extensions.all(bpmnPublishers) },
      settings,
    );
    return {
      handlers: {
        ...definitionHandlers(service),
        ...instanceHandlers(service),
        ...taskHandlers(service),
        ...jobHandlers(service, new JobService(service)),
      },
      offers: [bpmnPublishers],
      stop: () => service.close(),
      contributions: [
        contribute(
          coreExtensions.jobs,
          timerJob(db, service, { intervalMs: settings.timer_interval_ms, batch: settings.timer_batch }),
        ),
        contribute(alertSignals, incidentsSignal),
        contribute(coreExtensions.dependents, bpmnDependents),
        // The SQL console reads a tenant's instances, incidents and jobs.
        ...bpmnSqlTables.map((table) => contribute(sqlTables, table)),
        // Promotion carries every version of every definition (migration-resource.ts).
        contribute(migrationResources, bpmnDefinitionResource(service)),
      ],
    };
  },
});
