import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock } from '../types.js';
import { purgeExpiredKeys } from './store.js';

/**
 * Purges expired idempotency keys on a timer. Every instance runs it; the DELETE is
 * idempotent, so instances need not coordinate. The timer never keeps the process alive.
 */
export function startKeyPurge(db: Knex, clock: Clock, logger: Logger, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpiredKeys(db, clock.now())
      .then((n) => {
        if (n > 0) logger.debug({ purged: n }, 'expired idempotency keys purged');
      })
      .catch((err: unknown) => logger.warn({ err }, 'idempotency key purge failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
