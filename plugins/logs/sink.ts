import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock, LogRecord, LogSink } from '../../kernel/types.js';
import { insertLogs } from './store.js';

const BATCH = 500;
const MAX_QUEUED = 10_000;
const MAX_MESSAGE = 4000;

interface Queued {
  tenant_id: string;
  at: Date;
  level: string;
  source: string;
  message: string;
  fields: string;
}

/**
 * The runtime log other plugins write to. `write` only queues (it never waits for the database,
 * so a caller inside a request's transaction cannot deadlock the embedded database's single
 * connection); the queue is stored in batches right after, from outside any request. Logs are
 * diagnostics, not the audit trail: when the queue is full, new records are dropped and counted.
 * It is not a kernel job: the queue is this process's memory, and a job's lease is cluster-wide.
 */
export function createLogSink(
  db: Knex,
  clock: Clock,
  logger: Logger,
): LogSink & { stop(): Promise<void>; dropped(): number } {
  let queue: Queued[] = [];
  let flushing: Promise<void> | undefined;
  let scheduled = false;
  let dropped = 0;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH);
      queue = queue.slice(batch.length);
      try {
        await insertLogs(db, batch);
      } catch (err) {
        logger.warn({ err, records: batch.length }, 'runtime log records could not be stored');
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= drain().finally(() => {
      flushing = undefined;
    });
    return flushing.then(() => (queue.length > 0 ? flush() : undefined));
  }

  return {
    async write(record: LogRecord) {
      if (queue.length >= MAX_QUEUED) {
        dropped += 1;
        return;
      }
      queue.push({
        tenant_id: record.tenantId,
        at: clock.now(),
        level: record.level,
        source: record.source.slice(0, 200),
        message: record.message.slice(0, MAX_MESSAGE),
        fields: JSON.stringify(record.fields ?? {}),
      });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    },
    flush,
    stop: flush,
    dropped: () => dropped,
  };
}
