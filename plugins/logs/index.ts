import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { logHandlers } from './handlers.js';
import { createLogs } from './migrations/001_logs.js';
import { createLogSink } from './sink.js';

/** Runtime logs: the log sink other plugins write to (the `logs` service) and GET /logs. */
export default createPlugin({
  id: 'logs',
  manifest: fromRoot('manifests', 'logs.json'),
  migrations: [createLogs],
  deps: { db: coreServices.db, clock: coreServices.clock, logger: coreServices.logger },
  setup({ db, clock, logger }) {
    const sink = createLogSink(db, clock, logger);
    return {
      handlers: logHandlers(),
      contributions: [contribute(coreExtensions.logSink, sink)],
      stop: () => sink.stop(),
    };
  },
});
