import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { componentDirectoryReceivers, componentTypes, stageTimings } from '../components/contract.js';
import { streamCodecs } from '../streams/contract.js';
import { ComponentLookup } from './components-directory.js';
import { workflowStreams } from './contract.js';
import { runHandlers } from './handlers/runs.js';
import { workflowHandlers } from './handlers/workflows.js';
import { workflowMetrics } from './metrics.js';
import { createWorkflows } from './migrations/001_workflows.js';
import { createHourlyCounters } from './migrations/002_hourly_counters.js';
import { workflowTrafficSources } from '../dashboard/contract.js';
import { readHourly } from './dashboard/hourly.js';
import { sqlTables } from '../sql/contract.js';
import { workflowSqlTables } from './sql-tables.js';
import { migrationResources } from '../migration/contract.js';
import { workflowResource } from './migration-resource.js';
import { alertSignals } from '../alerts/contract.js';
import { errorRateSignal } from './dashboard/error-rate-signal.js';
import { workflowFailedSignal } from './failed-signal.js';
import { codecTypes } from './types/codec.js';
import { jsonTransformType } from './types/json-transform.js';
import { sandboxedTypes, scriptSources } from './types/sandboxed.js';
import { addWorkflowErrors } from './migrations/003_workflow_errors.js';
import { workflowDependents } from './dependents.js';
import { studioWorkspaceFiles } from '../studio/contract.js';
import { logType, streamPublishType } from './types/sinks.js';
import { Worker } from './worker/worker.js';
import type { Settings } from './generated/manifest-types.js';

/**
 * Workflows: definitions with immutable revisions, deploys, and the workers that run them on
 * every instance. Contributes the processor and sink types it runs itself (script, filter, map,
 * codec.decode/encode, json.transform, stream.publish, log); offers `workflows.streams`, through
 * which the streams plugin gives it what the worker's transaction needs; receives the components
 * plugin's directory (`components.directory`) for steps that reference a component by id.
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    logger: typeof coreServices.logger;
    jobs: typeof coreServices.jobs;
    logs: typeof coreServices.logs;
    metrics: typeof coreServices.metrics;
    extensions: typeof coreServices.extensions;
    sandbox: typeof coreServices.sandbox;
  },
  Settings
>({
  id: 'workflows',
  manifest: fromRoot('manifests', 'workflows.json'),
  migrations: [createWorkflows, createHourlyCounters, addWorkflowErrors],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    logger: coreServices.logger,
    jobs: coreServices.jobs,
    logs: coreServices.logs,
    metrics: coreServices.metrics,
    extensions: coreServices.extensions,
    sandbox: coreServices.sandbox,
  },
  setup({ db, clock, logger, jobs, logs, metrics, extensions, sandbox }, { settings }) {
    const resolvers = { extensions, components: new ComponentLookup(), sandbox };
    const worker = new Worker({
      db,
      extensions,
      resolvers,
      jobs,
      logs,
      clock,
      logger,
      metrics: workflowMetrics(metrics, settings.metrics_max_series),
      pollMs: settings.poll_ms,
      leaseMs: settings.lease_ms,
      timings: stageTimings(metrics),
    });
    const types = [
      ...sandboxedTypes(
        () => sandbox,
        scriptSources(db, () => extensions.all(studioWorkspaceFiles)[0]),
      ),
      ...codecTypes(db, () => extensions.all(streamCodecs)[0]),
      jsonTransformType,
      streamPublishType,
      logType,
    ];
    return {
      handlers: { ...workflowHandlers(resolvers, clock, worker), ...runHandlers(resolvers, worker) },
      offers: [workflowStreams, studioWorkspaceFiles],
      contributions: [
        ...types.map((t) => contribute(componentTypes, t)),
        contribute(coreExtensions.jobs, worker.spec()),
        contribute(coreExtensions.dependents, workflowDependents),
        contribute(componentDirectoryReceivers, resolvers.components.receiver),
        contribute(workflowTrafficSources, {
          daily: (db, tenantId, window) => readHourly(db, tenantId, window.since, window.until),
        }),
        // The SQL console reads a tenant's workflows, revisions and runs.
        ...workflowSqlTables.map((table) => contribute(sqlTables, table)),
        contribute(migrationResources, workflowResource),
        contribute(alertSignals, errorRateSignal),
        contribute(alertSignals, workflowFailedSignal),
      ],
      async start() {
        worker.start();
      },
      stop: () => worker.stop(),
    };
  },
});
