import type { Migration } from '../../../kernel/types.js';

/**
 * The nats index's runs by their first offset. Retention by age looks for a partition's first
 * message published at or after a cutoff: the run holding it starts at or below it, but may end
 * anywhere above (a long publish interleaved with others). Ordered by `last_offset` only, nothing
 * tells when no later-ending run starts lower, so finding it meant reading every run of the stream;
 * by `first_offset` the runs below the cut are read and no more (nats-age-cut.ts). One entry per
 * run (per publish), not per message.
 */
export const indexRunsByFirstOffset: Migration = {
  name: '008_runs_by_first_offset',
  async up(db) {
    await db.raw(
      'CREATE INDEX streams_message_runs_first_offset ON streams_message_runs (tenant_id, stream_uid, first_offset)',
    );
  },
  async down(db) {
    await db.raw('DROP INDEX streams_message_runs_first_offset');
  },
};
