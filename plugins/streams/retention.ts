import type { Knex } from 'knex';
import type { Clock } from '../../kernel/types.js';
import type { JobSpec } from '../../kernel/plugin/api.js';
import type { StreamBackend } from './backend.js';

/**
 * The `streams.retention` job: removes messages older than a stream's `max_age_hours`, beyond its
 * `max_messages` (per partition) and of deleted streams. Each statement deletes at most `batch`
 * messages in its own short transaction; a full batch asks the runner for another run at once.
 */
export function retentionJob(
  db: Knex,
  backend: StreamBackend,
  clock: Clock,
  options: { intervalMs: number; batch: number },
): JobSpec {
  return {
    name: 'streams.retention',
    intervalMs: options.intervalMs,
    async run({ signal }) {
      if (signal.aborted) return;
      const removed = await backend.enforceRetention(db, options.batch, clock.now());
      return removed >= options.batch ? 'more' : undefined;
    },
  };
}
