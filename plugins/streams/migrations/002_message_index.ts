import type { Migration } from '../../../kernel/types.js';

/**
 * Where the nats backend finds a message by id, lists a tenant's messages by time and counts lag:
 * one row per message (its position and metadata, never its body, which stays in JetStream),
 * written in the publishing call's transaction. Unused by the postgres backend.
 */
export const createMessageIndex: Migration = {
  name: '002_message_index',
  async up(db) {
    await db.schema.createTable('streams_message_index', (t) => {
      t.text('tenant_id').notNullable();
      t.text('stream_uid').notNullable();
      t.integer('partition').notNullable();
      t.bigInteger('offset').notNullable();
      t.text('id').notNullable();
      t.text('stream').notNullable();
      t.timestamp('published_at', { useTz: true, precision: 3 }).notNullable();
      t.text('replay_of');
      t.primary(['tenant_id', 'stream_uid', 'partition', 'offset']);
      t.unique(['tenant_id', 'id']);
      t.index(['tenant_id', 'stream_uid', 'published_at']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('streams_message_index');
  },
};
