import type { Migration } from '../../../kernel/types.js';

/**
 * Indexes for the operations views. Finds the replays of a message: the alerts plugin's dead-letter depth counts dead messages not
 * yet redriven, and the dashboard shows it, without scanning every message. Partial, so it holds
 * only replays (few next to all messages).
 */
export const createReplayIndex: Migration = {
  name: '003_replay_index',
  async up(db) {
    await db.raw(
      'CREATE INDEX streams_messages_replay_of ON streams_messages (tenant_id, replay_of) WHERE replay_of IS NOT NULL',
    );
    await db.raw(
      'CREATE INDEX streams_message_index_replay_of ON streams_message_index (tenant_id, replay_of) WHERE replay_of IS NOT NULL',
    );
    // Dead deliveries by time and the dashboard's per-window figures read deliveries by (tenant, at).
    await db.raw('CREATE INDEX streams_deliveries_at ON streams_deliveries (tenant_id, at)');
    // Dead letters are few next to all deliveries: counting them reads only these entries.
    await db.raw(
      "CREATE INDEX streams_deliveries_dead ON streams_deliveries (tenant_id, workflow, message_id) WHERE status = 'dead'",
    );
  },
  async down(db) {
    await db.raw('DROP INDEX IF EXISTS streams_deliveries_dead');
    await db.raw('DROP INDEX IF EXISTS streams_deliveries_at');
    await db.raw('DROP INDEX IF EXISTS streams_message_index_replay_of');
    await db.raw('DROP INDEX IF EXISTS streams_messages_replay_of');
  },
};
