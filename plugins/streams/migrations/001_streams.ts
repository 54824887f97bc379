import type { Migration } from '../../../kernel/types.js';

/** How many hash partitions of tenant_id hold the messages (PostgreSQL declarative partitioning). */
const MESSAGE_TABLE_PARTITIONS = 8;

/**
 * Stream definitions, the per-partition offset counters, the messages (append-only, partitioned
 * by tenant), idempotent publish results, consumer offsets and deliveries. Messages, counters,
 * offsets and idempotency results are keyed by the stream's `uid`, not its id: a deleted stream's
 * rows are orphans the retention job removes in batches, and a stream re-created under the same
 * id starts empty.
 */
export const createStreams: Migration = {
  name: '001_streams',
  async up(db) {
    await db.schema.createTable('streams_streams', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('uid').notNullable();
      t.text('name').notNullable();
      t.integer('partitions').notNullable();
      t.integer('max_age_hours');
      t.bigInteger('max_messages');
      t.text('codec');
      t.integer('revision').notNullable().defaultTo(1);
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.unique(['tenant_id', 'uid']);
    });
    // One row per partition: the next offset to hand out. The publishing transaction updates it,
    // so publishers of one partition queue on its row lock and offsets stay dense and commit in order.
    await db.schema.createTable('streams_partitions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('stream_uid').notNullable();
      t.integer('partition').notNullable();
      t.bigInteger('next_offset').notNullable().defaultTo(0);
      t.primary(['tenant_id', 'stream_uid', 'partition']);
    });
    await db.raw(`
      CREATE TABLE streams_messages (
        tenant_id text NOT NULL,
        stream_uid text NOT NULL,
        partition integer NOT NULL,
        "offset" bigint NOT NULL,
        id text NOT NULL,
        stream text NOT NULL,
        key text,
        headers jsonb NOT NULL DEFAULT '{}',
        content_type text NOT NULL,
        body bytea NOT NULL,
        size integer NOT NULL,
        published_at timestamptz(3) NOT NULL,
        replay_of text,
        PRIMARY KEY (tenant_id, stream_uid, partition, "offset"),
        UNIQUE (tenant_id, id)
      ) PARTITION BY HASH (tenant_id)`);
    for (let i = 0; i < MESSAGE_TABLE_PARTITIONS; i++) {
      await db.raw(
        `CREATE TABLE streams_messages_p${i} PARTITION OF streams_messages FOR VALUES WITH (MODULUS ${MESSAGE_TABLE_PARTITIONS}, REMAINDER ${i})`,
      );
    }
    await db.raw('CREATE INDEX streams_messages_time ON streams_messages (tenant_id, stream_uid, published_at)');
    // Deleted streams whose messages the retention job still has to remove.
    await db.schema.createTable('streams_discarded', (t) => {
      t.text('tenant_id').notNullable();
      t.text('stream_uid').notNullable();
      t.timestamp('discarded_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'stream_uid']);
    });
    await db.schema.createTable('streams_publishes', (t) => {
      t.text('tenant_id').notNullable();
      t.text('stream_uid').notNullable();
      t.text('key').notNullable();
      t.text('fingerprint').notNullable();
      t.jsonb('result').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'stream_uid', 'key']);
    });
    await db.schema.createTable('streams_consumer_offsets', (t) => {
      t.text('tenant_id').notNullable();
      t.text('stream_uid').notNullable();
      t.text('consumer').notNullable();
      t.integer('partition').notNullable();
      t.bigInteger('committed_offset').notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'stream_uid', 'consumer', 'partition']);
    });
    await db.schema.createTable('streams_deliveries', (t) => {
      t.text('tenant_id').notNullable();
      t.text('message_id').notNullable();
      t.text('workflow').notNullable();
      t.integer('revision').notNullable();
      t.text('run_id').notNullable();
      t.integer('attempt').notNullable();
      t.text('status').notNullable();
      t.text('error');
      t.jsonb('outputs').notNullable().defaultTo('[]');
      t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'message_id', 'workflow', 'attempt']);
      t.index(['tenant_id', 'workflow', 'status']);
    });
  },
  async down(db) {
    for (const table of [
      'streams_deliveries',
      'streams_consumer_offsets',
      'streams_publishes',
      'streams_messages',
      'streams_discarded',
      'streams_partitions',
      'streams_streams',
    ])
      await db.schema.dropTableIfExists(table);
  },
};
