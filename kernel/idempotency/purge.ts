import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock } from '../types.js';
import type { JobSpec } from '../jobs/types.js';
import { purgeExpiredKeys } from './store.js';

/**
 * The purge of expired idempotency keys, as a job: one instance at a time deletes them (in
 * batches, see purgeExpiredKeys), every `intervalMs` across all instances.
 */
export function keyPurgeJob(db: Knex, clock: Clock, logger: Logger, intervalMs: number): JobSpec {
  return {
    name: 'kernel.idempotency-purge',
    intervalMs,
    async run() {
      const purged = await purgeExpiredKeys(db, clock.now());
      if (purged > 0) logger.debug({ purged }, 'expired idempotency keys purged');
    },
  };
}
