import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { fromRoot } from '../../kernel/paths.js';
import type { Clock, PluginDefinition } from '../../kernel/types.js';
import { logHandlers } from './handlers.js';
import { createLogs } from './migrations/001_logs.js';
import { createLogSink } from './sink.js';

/** Runtime logs: the LogSink other plugins write to (services.logs) and GET /logs. */
const plugin: PluginDefinition = {
  id: 'logs',
  manifest: fromRoot('manifests', 'logs.json'),
  migrations: [createLogs],
  setup(context) {
    const { db, clock, logger } = context.services as { db: Knex; clock: Clock; logger: Logger };
    const sink = createLogSink(db, clock, logger);
    return { handlers: logHandlers(), logs: sink, stop: () => sink.stop() };
  },
};
export default plugin;
