import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import type { Appended, MessageQuery, NewMessage, StreamRef } from './backend.js';
import { messageFilter } from './message-query.js';
import { runsOf } from './message-runs.js';

type Db = Knex | Knex.Transaction;

/**
 * The nats backend's index in PostgreSQL: JetStream finds a message by sequence only, so what the
 * API finds by id, lists by time or counts as lag comes from `streams_message_runs` (one row per
 * run of consecutive ids, written in the publishing call's transaction) and its positions view.
 * Every statement of the nats backend is here.
 */

async function rows<T>(db: Db, sql: string, bindings: readonly unknown[]): Promise<T[]> {
  return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;
}

/** Where one indexed message is: enough for a direct get. */
export interface IndexRow {
  stream_uid: string;
  partition: number;
  offset: string | number;
}

/** A row of `streams_message_runs` as retention and lookups by id read it. */
export interface RunRow {
  last_id: string;
  first_id: string;
  partitions: number[];
  /** Null where retention removed the message. */
  offsets: Array<string | number | null>;
}

/** A stream with a retention limit, as the retention pass reads it. */
export interface LimitedStream {
  tenant_id: string;
  uid: string;
  partitions: number;
  max_age_hours: number | null;
  max_messages: string | number | null;
}

const INSERT_RUN = `INSERT INTO streams_message_runs (tenant_id, last_id, first_id, stream_uid, stream, published_at, first_offset, last_offset, partitions, offsets)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?::integer[], ?::bigint[] WHERE EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = ? AND s.uid = ?)`;

const INSERT_REPLAYS =
  'INSERT INTO streams_message_replays (tenant_id, replay_of, id) SELECT ?, r.replay_of, r.id FROM unnest(?::text[], ?::text[]) AS r(replay_of, id)';

/** The index's statements for published messages: a run row per run of consecutive ids, then the replay rows (if any). */
function indexStatements(
  stream: StreamRef,
  messages: readonly NewMessage[],
  appended: readonly Appended[],
  now: Date,
): { runs: Knex.RawBinding[][]; replays?: Knex.RawBinding[] } {
  const runs = runsOf(messages.map((m) => m.id)).map(([start, end]) => {
    const offsets = appended.slice(start, end).map((a) => a.offset);
    return [
      stream.tenantId,
      (messages[end - 1] as NewMessage).id,
      (messages[start] as NewMessage).id,
      stream.uid,
      stream.id,
      now,
      Math.min(...offsets),
      Math.max(...offsets),
      messages.slice(start, end).map((m) => m.partition),
      offsets,
      stream.tenantId,
      stream.uid,
    ] as Knex.RawBinding[];
  });
  const replays = messages.filter((m) => m.replayOf !== null);
  if (replays.length === 0) return { runs };
  return {
    runs,
    replays: [stream.tenantId, replays.map((m) => m.replayOf), replays.map((m) => m.id)] as Knex.RawBinding[],
  };
}

const streamGone = (stream: StreamRef) => new ApiError('not_found', `No stream "${stream.id}".`);

/**
 * Indexes published messages: one `streams_message_runs` row per run of consecutive ids (a batch
 * publish is one), plus a row per replay. Only while the stream lives (the caller may have left
 * that check to it): otherwise nothing is written and the publish is refused.
 */
export async function indexRuns(
  db: Db,
  stream: StreamRef,
  messages: readonly NewMessage[],
  appended: readonly Appended[],
  now: Date,
): Promise<void> {
  if (messages.length === 0) return;
  const { runs, replays } = indexStatements(stream, messages, appended, now);
  let written = 0;
  for (const bindings of runs) {
    const inserted = (await db.raw(INSERT_RUN, bindings)) as { rowCount?: number; affectedRows?: number };
    written += inserted.rowCount ?? inserted.affectedRows ?? 0;
    if (written === 0) throw streamGone(stream);
  }
  if (replays) await db.raw(INSERT_REPLAYS, replays);
}

/** The same rows as parts of the call's combined write: the first run is required, so a stream deleted meanwhile writes nothing and answers 404. */
export function addIndexRuns(
  write: CombinedWrite,
  stream: StreamRef,
  messages: readonly NewMessage[],
  appended: readonly Appended[],
  now: Date,
): void {
  if (messages.length === 0) return;
  const { runs, replays } = indexStatements(stream, messages, appended, now);
  runs.forEach((bindings, i) =>
    write.add(
      'streams_message_runs',
      `${INSERT_RUN} RETURNING 1`,
      bindings,
      i === 0 ? { required: streamGone(stream) } : {},
    ),
  );
  if (replays) write.add('streams_message_replays', INSERT_REPLAYS, replays);
}

/** Lookups and retention's reads and removals in the index. */
export class NatsIndexStore {
  constructor(private readonly db: Db) {}

  /** A deleted stream's JetStream stream is removed later, by retention (outside the deleting call). */
  async markDiscarded(stream: Pick<StreamRef, 'tenantId' | 'uid'>): Promise<void> {
    await this.db('streams_discarded')
      .insert({ tenant_id: stream.tenantId, stream_uid: stream.uid, discarded_at: this.db.fn.now() })
      .onConflict(['tenant_id', 'stream_uid'])
      .ignore();
  }

  /** The run holding the id, if any, with whether its stream still lives. */
  async runHolding(
    tenantId: string,
    id: string,
  ): Promise<(RunRow & { stream_uid: string; live: boolean }) | undefined> {
    // The run holding the id, if any, is the first whose last id is at or after it (runs never overlap).
    const [run] = await rows<RunRow & { stream_uid: string; live: boolean }>(
      this.db,
      `SELECT r.stream_uid, r.last_id, r.first_id, r.partitions, r.offsets, EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = r.tenant_id AND s.uid = r.stream_uid) AS live
         FROM streams_message_runs r WHERE r.tenant_id = ? AND r.last_id >= ? ORDER BY r.last_id LIMIT 1`,
      [tenantId, id],
    );
    return run;
  }

  /** Where the messages a listing shows are, in its order. */
  async positions(tenantId: string, query: MessageQuery): Promise<IndexRow[]> {
    const { where, bindings } = messageFilter(tenantId, query);
    // Runs after the cursor's (ordered by last id, their messages by place): the condition on the
    // run lets the scan start at the cursor instead of at the tenant's first message.
    const after = query.afterId !== undefined ? ' AND m.last_id > ?' : '';
    return rows<IndexRow>(
      this.db,
      `SELECT m.stream_uid, m.partition, m."offset" FROM streams_message_positions m WHERE ${where}${after} ORDER BY m.last_id, m.n LIMIT ?`,
      [...bindings, ...(query.afterId !== undefined ? [query.afterId] : []), query.limit],
    );
  }

  /** How many of the partition's messages are at or after `fromOffset` (a consumer's lag). */
  async pending(stream: Pick<StreamRef, 'tenantId' | 'uid'>, partition: number, fromOffset: number): Promise<number> {
    const [row] = await rows<{ n: string | number }>(
      this.db,
      'SELECT count(*) AS n FROM streams_message_positions WHERE tenant_id = ? AND stream_uid = ? AND last_offset >= ? AND partition = ? AND "offset" >= ?',
      [stream.tenantId, stream.uid, fromOffset, partition, fromOffset],
    );
    return Number(row?.n ?? 0);
  }

  /** The runs holding the partition's oldest messages below the cut, at most one per message the batch allows. */
  async runsBelow(
    stream: Pick<StreamRef, 'tenantId' | 'uid'>,
    partition: number,
    keepFrom: number,
    batch: number,
  ): Promise<RunRow[]> {
    return rows<RunRow>(
      this.db,
      `SELECT r.last_id, r.first_id, r.partitions, r.offsets FROM streams_message_runs r
        WHERE r.tenant_id = ? AND r.last_id IN (
          SELECT p.last_id FROM streams_message_positions p WHERE p.tenant_id = ? AND p.stream_uid = ? AND p.first_offset < ? AND p.partition = ? AND p."offset" < ?
           GROUP BY p.last_id ORDER BY min(p."offset") LIMIT ?)
        ORDER BY r.first_offset`,
      [stream.tenantId, stream.tenantId, stream.uid, keepFrom, partition, keepFrom, batch],
    );
  }

  /** Some runs of a stream (a discarded one: all of them go). */
  async runsOf(tenantId: string, uid: string, limit: number): Promise<RunRow[]> {
    return rows<RunRow>(
      this.db,
      'SELECT last_id, first_id, partitions, offsets FROM streams_message_runs WHERE tenant_id = ? AND stream_uid = ? LIMIT ?',
      [tenantId, uid, limit],
    );
  }

  /** A run keeps its place with some messages gone: their offsets are null. */
  async setRunOffsets(tenantId: string, lastId: string, offsets: ReadonlyArray<number | null>): Promise<void> {
    await this.db.raw('UPDATE streams_message_runs SET offsets = ?::bigint[] WHERE tenant_id = ? AND last_id = ?', [
      offsets as unknown as Knex.RawBinding,
      tenantId,
      lastId,
    ]);
  }

  async deleteRuns(tenantId: string, lastIds: readonly string[]): Promise<void> {
    await this.db('streams_message_runs').where({ tenant_id: tenantId }).whereIn('last_id', lastIds).delete();
  }

  /** Removed messages' deliveries, open dead letters and replay records go with their index entries (as on the postgres backend). */
  async forgetMessages(tenantId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db('streams_deliveries').where({ tenant_id: tenantId }).whereIn('message_id', ids).delete();
    await this.db('streams_dead_letters').where({ tenant_id: tenantId }).whereIn('message_id', ids).delete();
    await this.db('streams_message_replays').where({ tenant_id: tenantId }).whereIn('id', ids).delete();
  }

  /** Deleted streams whose JetStream stream and index are still to be removed, oldest first. */
  async discarded(): Promise<Array<{ tenant_id: string; stream_uid: string }>> {
    return rows<{ tenant_id: string; stream_uid: string }>(
      this.db,
      'SELECT tenant_id, stream_uid FROM streams_discarded ORDER BY discarded_at LIMIT 100',
      [],
    );
  }

  /** The last of a discarded stream: its consumers' offsets, its publish records, its discard mark. */
  async forgetStream(tenantId: string, uid: string): Promise<void> {
    await this.db('streams_consumer_offsets').where({ tenant_id: tenantId, stream_uid: uid }).delete();
    await this.db('streams_publishes').where({ tenant_id: tenantId, stream_uid: uid }).delete();
    await this.db('streams_discarded').where({ tenant_id: tenantId, stream_uid: uid }).delete();
  }

  async limitedStreams(): Promise<LimitedStream[]> {
    return rows<LimitedStream>(
      this.db,
      'SELECT tenant_id, uid, partitions, max_age_hours, max_messages FROM streams_streams WHERE max_age_hours IS NOT NULL OR max_messages IS NOT NULL ORDER BY tenant_id, id',
      [],
    );
  }
}
