import type { Knex } from 'knex';
import type { NewMessage, StoredMessage, StreamBackend } from './backend.js';
import { messageFilter } from './message-query.js';
import { appendInto, appendToOnePartition } from './postgres-append-backend.js';

type Db = Knex | Knex.Transaction;

interface MessageRow {
  id: string;
  stream: string;
  partition: number;
  offset: string | number;
  key: string | null;
  headers: Record<string, string>;
  content_type: string;
  body: Uint8Array;
  published_at: Date | string;
  replay_of: string | null;
  codec: string | null;
  codec_revision: number | null;
}

const COLUMNS =
  'm.id, m.stream, m.partition, m."offset", m.key, m.headers, m.content_type, m.body, m.published_at, m.replay_of, m.codec, m.codec_revision';

function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    stream: row.stream,
    partition: Number(row.partition),
    offset: Number(row.offset),
    key: row.key,
    headers: row.headers,
    contentType: row.content_type,
    body: Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body),
    publishedAt: row.published_at instanceof Date ? row.published_at : new Date(row.published_at),
    replayOf: row.replay_of,
    writer:
      row.codec !== null && row.codec_revision !== null ? { codec: row.codec, revision: row.codec_revision } : null,
  };
}

async function rows<T>(db: Db, sql: string, bindings: readonly unknown[]): Promise<T[]> {
  const result = (await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] };
  return result.rows;
}

const INSERT_MESSAGES =
  'INSERT INTO streams_messages (tenant_id, stream_uid, partition, "offset", id, stream, key, headers, content_type, body, size, published_at, replay_of, codec, codec_revision) VALUES';
const MESSAGE_ROW = `(${Array.from({ length: 15 }, () => '?').join(', ')})`;

/** Live streams only: a deleted stream's messages are invisible until the retention job removes them. */
const LIVE = 'EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = m.tenant_id AND s.uid = m.stream_uid)';

/**
 * The default backend: messages in `streams_messages` (hash-partitioned by tenant), offsets from
 * one counter row per partition updated in the publishing transaction. That row's lock queues
 * the publishers of a partition, so offsets are dense and become visible in offset order: a
 * reader paging by (partition, offset) never skips a message that commits later with a lower offset.
 */
export function postgresBackend(): StreamBackend {
  return {
    name: 'postgres',

    async provision(db, stream) {
      const values = Array.from({ length: stream.partitions }, (_, partition) => ({
        tenant_id: stream.tenantId,
        stream_uid: stream.uid,
        partition,
        next_offset: 0,
      }));
      await db('streams_partitions').insert(values).onConflict(['tenant_id', 'stream_uid', 'partition']).ignore();
    },

    async discard(db, stream) {
      await db('streams_partitions').where({ tenant_id: stream.tenantId, stream_uid: stream.uid }).delete();
      await db('streams_discarded')
        .insert({ tenant_id: stream.tenantId, stream_uid: stream.uid, discarded_at: db.fn.now() })
        .onConflict(['tenant_id', 'stream_uid'])
        .ignore();
    },

    async append(db, stream, messages, now) {
      const partitions = new Set(messages.map((m) => m.partition));
      if (partitions.size === 1) return appendToOnePartition(db, stream, messages, now);
      const byPartition = new Map<number, NewMessage[]>();
      for (const message of messages) {
        const group = byPartition.get(message.partition);
        if (group) group.push(message);
        else byPartition.set(message.partition, [message]);
      }
      const offsets = new Map<NewMessage, number>();
      // Partitions in ascending order, so two batches touching the same partitions never deadlock.
      for (const partition of [...byPartition.keys()].sort((a, b) => a - b)) {
        const group = byPartition.get(partition) as NewMessage[];
        const [counter] = await rows<{ next_offset: string | number }>(
          db,
          'UPDATE streams_partitions SET next_offset = next_offset + ? WHERE tenant_id = ? AND stream_uid = ? AND partition = ? RETURNING next_offset',
          [group.length, stream.tenantId, stream.uid, partition],
        );
        if (!counter) throw new Error(`stream ${stream.id} has no partition ${partition}`);
        const first = Number(counter.next_offset) - group.length;
        group.forEach((message, i) => offsets.set(message, first + i));
      }
      // The multi-row INSERT written out directly: the query builder's per-value work (100 rows of
      // 15 columns) was the costliest part of a publish after the database's own.
      const bindings: unknown[] = [];
      for (const m of messages) {
        bindings.push(
          stream.tenantId,
          stream.uid,
          m.partition,
          offsets.get(m),
          m.id,
          stream.id,
          m.key,
          JSON.stringify(m.headers),
          m.contentType,
          m.body,
          m.body.length,
          now,
          m.replayOf,
          m.writer?.codec ?? null,
          m.writer?.revision ?? null,
        );
      }
      await db.raw(
        `${INSERT_MESSAGES} ${Array.from({ length: messages.length }, () => MESSAGE_ROW).join(', ')}`,
        bindings as Knex.RawBinding[],
      );
      return messages.map((m) => ({ id: m.id, partition: m.partition, offset: offsets.get(m) as number }));
    },

    appendIn: appendInto,

    async read(db, stream, request) {
      const where = ['m.tenant_id = ?', 'm.stream_uid = ?'];
      const bindings: unknown[] = [stream.tenantId, stream.uid];
      if (request.partition !== undefined) {
        where.push('m.partition = ?');
        bindings.push(request.partition);
      }
      if (request.fromOffset !== undefined) {
        where.push('m."offset" >= ?');
        bindings.push(request.fromOffset);
      }
      if (request.after) {
        where.push('(m.partition, m."offset") > (?, ?)');
        bindings.push(request.after.partition, request.after.offset);
      }
      bindings.push(request.limit);
      const found = await rows<MessageRow>(
        db,
        `SELECT ${COLUMNS} FROM streams_messages m WHERE ${where.join(' AND ')} ORDER BY m.partition, m."offset" LIMIT ?`,
        bindings,
      );
      return found.map(toMessage);
    },

    async get(db, tenantId, id) {
      const [row] = await rows<MessageRow>(
        db,
        `SELECT ${COLUMNS} FROM streams_messages m WHERE m.tenant_id = ? AND m.id = ? AND ${LIVE}`,
        [tenantId, id],
      );
      return row && toMessage(row);
    },

    async list(db, tenantId, query) {
      const { where, bindings } = messageFilter(tenantId, query);
      const found = await rows<MessageRow>(
        db,
        `SELECT ${COLUMNS} FROM streams_messages m WHERE ${where} ORDER BY m.id LIMIT ?`,
        [...bindings, query.limit],
      );
      return found.map(toMessage);
    },

    async ends(db, stream) {
      const found = (await db('streams_partitions')
        .select('partition', 'next_offset')
        .where({ tenant_id: stream.tenantId, stream_uid: stream.uid })) as Array<{
        partition: number;
        next_offset: string | number;
      }>;
      const ends = Array.from({ length: stream.partitions }, () => 0);
      for (const row of found) ends[row.partition] = Number(row.next_offset);
      return ends;
    },

    async pending(db, stream, partition, fromOffset) {
      const [row] = await rows<{ next_offset: string | number; earliest: string | number | null }>(
        db,
        `SELECT p.next_offset, (SELECT min(m."offset") FROM streams_messages m WHERE m.tenant_id = p.tenant_id AND m.stream_uid = p.stream_uid AND m.partition = p.partition) AS earliest
           FROM streams_partitions p WHERE p.tenant_id = ? AND p.stream_uid = ? AND p.partition = ?`,
        [stream.tenantId, stream.uid, partition],
      );
      if (!row) return 0;
      const end = Number(row.next_offset);
      const start = Math.max(fromOffset, row.earliest === null ? end : Number(row.earliest));
      return Math.max(0, end - start);
    },

    async enforceRetention(db, batch, now) {
      const removed = await removeDiscarded(db, batch);
      return removed >= batch ? removed : removed + (await removeExpired(db, batch - removed, now));
    },
  };
}

/** Deletes the messages a statement selects (by primary key, at most `batch`), their deliveries and dead letters. */
async function deleteSelected(db: Knex, select: string, bindings: readonly unknown[]): Promise<number> {
  const deleted = await rows<{ tenant_id: string; id: string }>(
    db,
    `WITH gone AS (
       DELETE FROM streams_messages WHERE (tenant_id, stream_uid, partition, "offset") IN (${select}) RETURNING tenant_id, id
     ), deliveries AS (
       DELETE FROM streams_deliveries d USING gone WHERE d.tenant_id = gone.tenant_id AND d.message_id = gone.id
     ), letters AS (
       DELETE FROM streams_dead_letters l USING gone WHERE l.tenant_id = gone.tenant_id AND l.message_id = gone.id
     )
     SELECT tenant_id, id FROM gone`,
    bindings,
  );
  return deleted.length;
}

async function removeDiscarded(db: Knex, batch: number): Promise<number> {
  let removed = 0;
  const discarded = await rows<{ tenant_id: string; stream_uid: string }>(
    db,
    'SELECT tenant_id, stream_uid FROM streams_discarded ORDER BY discarded_at LIMIT 100',
    [],
  );
  for (const { tenant_id: tenantId, stream_uid: uid } of discarded) {
    const count = await deleteSelected(
      db,
      'SELECT tenant_id, stream_uid, partition, "offset" FROM streams_messages WHERE tenant_id = ? AND stream_uid = ? LIMIT ?',
      [tenantId, uid, batch - removed],
    );
    removed += count;
    if (removed >= batch) return removed;
    await db('streams_consumer_offsets').where({ tenant_id: tenantId, stream_uid: uid }).delete();
    await db('streams_publishes').where({ tenant_id: tenantId, stream_uid: uid }).delete();
    await db('streams_discarded').where({ tenant_id: tenantId, stream_uid: uid }).delete();
  }
  return removed;
}

async function removeExpired(db: Knex, batch: number, now: Date): Promise<number> {
  let removed = 0;
  const streams = await rows<{
    tenant_id: string;
    uid: string;
    max_age_hours: number | null;
    max_messages: string | number | null;
  }>(
    db,
    'SELECT tenant_id, uid, max_age_hours, max_messages FROM streams_streams WHERE max_age_hours IS NOT NULL OR max_messages IS NOT NULL ORDER BY tenant_id, id',
    [],
  );
  for (const stream of streams) {
    if (removed >= batch) break;
    if (stream.max_age_hours !== null) {
      const cutoff = new Date(now.getTime() - stream.max_age_hours * 3_600_000);
      removed += await deleteSelected(
        db,
        'SELECT tenant_id, stream_uid, partition, "offset" FROM streams_messages WHERE tenant_id = ? AND stream_uid = ? AND published_at < ? ORDER BY published_at LIMIT ?',
        [stream.tenant_id, stream.uid, cutoff, batch - removed],
      );
    }
    if (stream.max_messages !== null && removed < batch) {
      // Offsets are dense, so a partition keeps exactly the offsets at or above next_offset - max_messages.
      removed += await deleteSelected(
        db,
        `SELECT m.tenant_id, m.stream_uid, m.partition, m."offset" FROM streams_messages m
           JOIN streams_partitions p ON p.tenant_id = m.tenant_id AND p.stream_uid = m.stream_uid AND p.partition = m.partition
          WHERE m.tenant_id = ? AND m.stream_uid = ? AND m."offset" < p.next_offset - ? ORDER BY m.partition, m."offset" LIMIT ?`,
        [stream.tenant_id, stream.uid, Number(stream.max_messages), batch - removed],
      );
    }
  }
  return removed;
}
