import { contribute, coreServices, createPlugin, fromRoot, inUseCheck } from '../../kernel/plugin/api.js';
import { sqlTables } from '../sql/contract.js';
import { studioSqlTables } from './sql-tables.js';
import { migrationChecks, migrationResources } from '../migration/contract.js';
import { workspaceResource, workspaceTestsCheck } from './migration-resource.js';
import { streamCodecs } from '../streams/contract.js';
import { LazyCollab } from './collab/lazy.js';
import { FileCache } from './file-cache.js';
import { studioHandlers, type StudioSettings } from './handlers.js';
import { createStudio } from './migrations/001_studio.js';
import { socketHandlers } from './sockets.js';
import { studioWorkspaceFiles } from './contract.js';
import { workspaceFileReader } from './workspace-files.js';

/**
 * The studio workbench: workspaces of text files with immutable revisions, runs and tests in
 * the kernel's sandbox, one-time tickets for its two WebSockets — collaborative editing (Yjs)
 * and a terminal REPL. Contributes its workspace file reader to `studio.workspace-files` (offered
 * by the workflows plugin) so a workflow's `script` step can run a workspace's files.
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    events: typeof coreServices.events;
    tickets: typeof coreServices.tickets;
    audit: typeof coreServices.audit;
    logger: typeof coreServices.logger;
    sandbox: typeof coreServices.sandbox;
    extensions: typeof coreServices.extensions;
  },
  StudioSettings
>({
  id: 'studio',
  manifest: fromRoot('manifests', 'studio.json'),
  migrations: [createStudio],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    events: coreServices.events,
    tickets: coreServices.tickets,
    audit: coreServices.audit,
    logger: coreServices.logger,
    sandbox: coreServices.sandbox,
    extensions: coreServices.extensions,
  },
  setup({ db, clock, events, tickets, audit, logger, sandbox, extensions }, { settings }) {
    const cache = new FileCache();
    const collab = new LazyCollab({ db, events, clock, logger, audit, settings: settings.collab, limits: settings });
    return {
      handlers: {
        // The codecs plugin's resolver, given to the streams plugin's point (absent without them).
        ...studioHandlers({
          clock,
          tickets,
          sandbox,
          cache,
          settings,
          changes: collab,
          codecs: () => extensions.all(streamCodecs)[0],
          inUse: inUseCheck(extensions),
        }),
        ...socketHandlers({ db, clock, logger, audit, sandbox, cache, collab, maxTestCases: settings.max_test_cases }),
      },
      contributions: [
        contribute(studioWorkspaceFiles, workspaceFileReader(cache)),
        // The SQL console reads a tenant's workspaces and their revisions (files included).
        ...studioSqlTables.map((table) => contribute(sqlTables, table)),
        // Promotion moves workspaces, and refuses a bundle whose workspaces' tests fail on its files.
        contribute(migrationResources, workspaceResource),
        contribute(
          migrationChecks,
          workspaceTestsCheck(
            () => sandbox,
            () => settings.max_test_cases,
          ),
        ),
      ],
      async start() {
        collab.start();
      },
      async stop() {
        await collab.stop();
      },
    };
  },
});
