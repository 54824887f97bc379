import type { Migration } from '../../../kernel/types.js';

/**
 * The nats backend's index, one row per run of messages instead of one per message: a publish's
 * ids are contiguous (ids.ts), so its messages are one row holding the run's first and last id,
 * the stream, the publish time and each message's partition and offset (arrays, in id order; an
 * offset retention removed is null). Indexing a batch of 100 this way writes one row and three
 * index entries instead of 100 rows and 400 entries, most of the publish's cost in the database.
 *
 * Runs never overlap in id order, so ordering runs by `last_id` orders their messages, and the
 * run holding an id is the first whose `last_id` is at or after it. `first_offset`/`last_offset`
 * bound the run's offsets (concurrent publishes interleave their offsets). The view
 * `streams_message_positions` shows the retained messages one per row for the readers (lag,
 * listing, retention, alerts); predicates on the run columns reach the table's indexes.
 *
 * Replays, a few next to all messages, keep rows of their own: `streams_message_replays` tells
 * whether a message was replayed (open dead letters). Existing index rows become runs of one.
 */
export const createMessageRuns: Migration = {
  name: '007_message_runs',
  async up(db) {
    await db.raw(`
      CREATE TABLE streams_message_runs (
        tenant_id text NOT NULL,
        last_id text NOT NULL,
        first_id text NOT NULL,
        stream_uid text NOT NULL,
        stream text NOT NULL,
        published_at timestamptz(3) NOT NULL,
        first_offset bigint NOT NULL,
        last_offset bigint NOT NULL,
        partitions integer[] NOT NULL,
        offsets bigint[] NOT NULL,
        PRIMARY KEY (tenant_id, last_id)
      )`);
    await db.raw(
      'CREATE INDEX streams_message_runs_offset ON streams_message_runs (tenant_id, stream_uid, last_offset) INCLUDE (first_offset)',
    );
    // Every run of a publish has the same time: equal keys, appended without deduplication (as 006).
    await db.raw(
      'CREATE INDEX streams_message_runs_time ON streams_message_runs (tenant_id, stream_uid, published_at) WITH (deduplicate_items = off)',
    );
    await db.raw(`
      CREATE TABLE streams_message_replays (
        tenant_id text NOT NULL,
        replay_of text NOT NULL,
        id text NOT NULL,
        PRIMARY KEY (tenant_id, replay_of, id)
      )`);
    await db.raw('CREATE INDEX streams_message_replays_id ON streams_message_replays (tenant_id, id)');
    // The id `n` places after a run's first: same text but the last 3 hex digits, counted on (message-runs.ts).
    await db.raw(`
      CREATE FUNCTION streams_run_id(first_id text, n integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
      $$ SELECT CASE WHEN n = 0 THEN first_id ELSE left(first_id, -3) || lpad(to_hex(('x' || lpad(right(first_id, 3), 8, '0'))::bit(32)::integer + n), 3, '0') END $$`);
    await db.raw(`
      CREATE VIEW streams_message_positions AS
      SELECT r.tenant_id, r.stream_uid, r.stream, r.published_at, r.first_id, r.last_id, r.first_offset, r.last_offset,
             u.n, u.partition, u."offset", streams_run_id(r.first_id, (u.n - 1)::integer) AS id
        FROM streams_message_runs r
        CROSS JOIN LATERAL unnest(r.partitions, r.offsets) WITH ORDINALITY AS u(partition, "offset", n)
       WHERE u."offset" IS NOT NULL`);
    await db.raw(
      `INSERT INTO streams_message_runs (tenant_id, last_id, first_id, stream_uid, stream, published_at, first_offset, last_offset, partitions, offsets)
       SELECT tenant_id, id, id, stream_uid, stream, published_at, "offset", "offset", ARRAY[partition], ARRAY["offset"] FROM streams_message_index`,
    );
    await db.raw(
      'INSERT INTO streams_message_replays (tenant_id, replay_of, id) SELECT tenant_id, replay_of, id FROM streams_message_index WHERE replay_of IS NOT NULL',
    );
    await db.raw('DROP TABLE streams_message_index');
  },
  async down(db) {
    await db.raw(`
      CREATE TABLE streams_message_index (
        tenant_id text NOT NULL, stream_uid text NOT NULL, partition integer NOT NULL, "offset" bigint NOT NULL, id text NOT NULL, stream text NOT NULL,
        published_at timestamptz(3) NOT NULL, replay_of text,
        PRIMARY KEY (tenant_id, stream_uid, partition, "offset"), UNIQUE (tenant_id, id))`);
    await db.raw(
      'CREATE INDEX streams_message_index_tenant_id_stream_uid_published_at_index ON streams_message_index (tenant_id, stream_uid, published_at) WITH (deduplicate_items = off)',
    );
    await db.raw(
      'CREATE INDEX streams_message_index_replay_of ON streams_message_index (tenant_id, replay_of) WHERE replay_of IS NOT NULL',
    );
    await db.raw(
      `INSERT INTO streams_message_index (tenant_id, stream_uid, partition, "offset", id, stream, published_at, replay_of)
       SELECT p.tenant_id, p.stream_uid, p.partition, p."offset", p.id, p.stream, p.published_at, r.replay_of
         FROM streams_message_positions p LEFT JOIN streams_message_replays r ON r.tenant_id = p.tenant_id AND r.id = p.id`,
    );
    await db.raw('DROP VIEW streams_message_positions');
    await db.raw('DROP FUNCTION streams_run_id(text, integer)');
    await db.raw('DROP TABLE streams_message_replays');
    await db.raw('DROP TABLE streams_message_runs');
  },
};
