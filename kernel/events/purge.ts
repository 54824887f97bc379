import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { JobSpec } from '../jobs/types.js';
import { purgeEvents } from './store.js';

/**
 * Deletes events past their retention, on one instance at a time. Readers take an event within
 * a poll interval of its commit, so the retention only has to outlast the longest transaction
 * that holds readers back (see readAfter).
 */
export function eventPurgeJob(db: Knex, retentionSeconds: number, logger: Logger): JobSpec {
  return {
    name: 'kernel.events-purge',
    intervalMs: Math.min(60_000, Math.max(1000, retentionSeconds * 100)),
    async run() {
      const purged = await purgeEvents(db, retentionSeconds);
      if (purged > 0) logger.debug({ purged }, 'expired events purged');
    },
  };
}
