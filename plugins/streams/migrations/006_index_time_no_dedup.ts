import type { Migration } from '../../../kernel/types.js';

/**
 * The nats backend's index by publish time: every message of a batch carries the same
 * `published_at`, so each publish adds a run of equal keys, and B-tree deduplication keeps
 * rewriting the last leaf page into posting lists — the most expensive part of indexing a batch.
 * Without it equal keys are plain entries appended at the edge; the index answers the same queries.
 */
export const indexTimeWithoutDedup: Migration = {
  name: '006_index_time_no_dedup',
  async up(db) {
    await db.raw(
      'ALTER INDEX streams_message_index_tenant_id_stream_uid_published_at_index SET (deduplicate_items = off)',
    );
  },
  async down(db) {
    await db.raw('ALTER INDEX streams_message_index_tenant_id_stream_uid_published_at_index RESET (deduplicate_items)');
  },
};
