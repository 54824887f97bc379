import {
  contribute,
  coreExtensions,
  coreServices,
  createPlugin,
  fromRoot,
  inUseCheck,
} from '../../kernel/plugin/api.js';
import { migrationResources } from '../migration/contract.js';
import { streamResource } from './migration-resource.js';
import { streamDependents } from './dependents.js';
import { alertSignals } from '../alerts/contract.js';
import { dashboardSections, workflowTrafficSources } from '../dashboard/contract.js';
import { STREAM_SIGNALS } from './alert-signals.js';
import { workflowsSection } from './dashboard-section.js';
import { sqlTables } from '../sql/contract.js';
import { streamSqlTables } from './sql-tables.js';
import type { StreamBackend } from './backend.js';
import { bpmnStreamPublisher } from './bpmn-publisher.js';
import { componentPublisher } from '../components/contract.js';
import { streamCodecs } from './contract.js';
import { messageHandlers } from './handlers/messages.js';
import { streamHandlers } from './handlers/streams.js';
import { tailHandlers } from './handlers/tail.js';
import { createStreams } from './migrations/001_streams.js';
import { createMessageIndex } from './migrations/002_message_index.js';
import { createReplayIndex } from './migrations/003_replay_index.js';
import { addMessageWriter } from './migrations/004_message_writer.js';
import { createDeadLetters } from './migrations/005_dead_letters.js';
import { indexTimeWithoutDedup } from './migrations/006_index_time_no_dedup.js';
import { createMessageRuns } from './migrations/007_message_runs.js';
import { indexRunsByFirstOffset } from './migrations/008_runs_by_first_offset.js';
import { postgresBackend } from './postgres-backend.js';
import { streamPublisher } from './publisher.js';
import { retentionJob } from './retention.js';
import { workflowStreams } from '../workflows/contract.js';
import { workflowStreamsFor } from './workflow-streams.js';
import { StreamsService, type StreamsSettings } from './service.js';

/**
 * Streams (durable, partitioned logs of messages) and the messages in them, on PostgreSQL or
 * NATS JetStream (`settings.streams.backend`). Offers `streams.codecs`, through which the codecs
 * plugin lets streams encode and decode values.
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    events: typeof coreServices.events;
    extensions: typeof coreServices.extensions;
    config: typeof coreServices.config;
  },
  StreamsSettings
>({
  id: 'streams',
  manifest: fromRoot('manifests', 'streams.json'),
  migrations: [
    createStreams,
    createMessageIndex,
    createReplayIndex,
    addMessageWriter,
    createDeadLetters,
    indexTimeWithoutDedup,
    createMessageRuns,
    indexRunsByFirstOffset,
  ],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    events: coreServices.events,
    extensions: coreServices.extensions,
    config: coreServices.config,
  },
  async setup({ db, clock, events, extensions, config }, { settings }) {
    // The NATS client (and its dependencies) is loaded only by an instance configured for it.
    const backend: StreamBackend =
      settings.backend === 'nats'
        ? (await import('./nats-backend.js')).natsBackend(settings.nats.url)
        : postgresBackend();
    // Without a server URL the database is the embedded one, locked to this process.
    const service = new StreamsService(backend, extensions, events, clock, settings, {
      soleDatabaseUser: config.database.url === undefined,
    });
    return {
      handlers: {
        ...streamHandlers(service, inUseCheck(extensions)),
        ...messageHandlers(service),
        ...tailHandlers(service, db),
      },
      offers: [streamCodecs],
      contributions: [
        // Service tasks of the bpmn plugin append through this publisher (used only when that plugin is enabled).
        bpmnStreamPublisher(service),
        // Sources of the components plugin append through this publisher (used only when that plugin is enabled).
        contribute(componentPublisher, streamPublisher(service)),
        // Streams that decode with a codec.
        contribute(coreExtensions.dependents, streamDependents),
        contribute(
          coreExtensions.jobs,
          retentionJob(db, backend, clock, {
            intervalMs: settings.retention_interval_seconds * 1000,
            batch: settings.retention_batch,
          }),
        ),
        // Streams, offsets and deliveries for the workflow workers' transactions (ignored when workflows is disabled).
        contribute(workflowStreams, workflowStreamsFor(service)),
        // Stream definitions (never messages) for promotion between tenants.
        contribute(
          migrationResources,
          streamResource(() => service.streamsChanged()),
        ),
        // Its figures for the dashboard and the alerts plugin (ignored when those are disabled).
        contribute(
          dashboardSections,
          workflowsSection(() => extensions.all(workflowTrafficSources)[0]),
        ),
        ...STREAM_SIGNALS.map((signal) => contribute(alertSignals, signal)),
        // The SQL console reads a tenant's streams, messages, deliveries and consumer offsets.
        ...streamSqlTables.map((table) => contribute(sqlTables, table)),
      ],
      stop: async () => {
        await backend.close?.();
      },
    };
  },
});
