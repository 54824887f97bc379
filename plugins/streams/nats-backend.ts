import type { Knex } from 'knex';
import { connect, headers as natsHeaders, nanos, AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type MsgHdrs, type NatsConnection } from 'nats';
import { ApiError } from '../../kernel/errors.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import type { Appended, NewMessage, StoredMessage, StreamBackend, StreamRef } from './backend.js';
import { jetStreamPublisher, type Stored } from './jetstream-publisher.js';
import { messageFilter } from './message-query.js';
import { ageCut } from './nats-age-cut.js';
import { countCut } from './nats-count-cut.js';
import { idAt, placeIn, runsOf } from './message-runs.js';

type Db = Knex | Knex.Transaction;

/** A JetStream message as both reads (direct get, consumer fetch) give it. */
interface Fetched {
  seq: number;
  data: Uint8Array;
  meta: string;
}

/** The manager's direct-get API: present on the client's manager, missing from its declared interface. */
interface DirectGets {
  direct: { getMessage(stream: string, query: { seq: number; next_by_subj: string }): Promise<{ seq: number; data: Uint8Array; header: MsgHdrs }> };
}

interface Connected {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager & DirectGets;
  publisher: ReturnType<typeof jetStreamPublisher>;
}

/** What travels with each JetStream message besides its body, as one JSON header. */
interface Meta {
  id: string;
  stream: string;
  key: string | null;
  headers: Record<string, string>;
  content_type: string;
  published_at: string;
  replay_of: string | null;
  /** The codec revision that wrote the body (absent when none did). */
  codec?: string;
  codec_revision?: number;
}

const META_HEADER = 'Rt-Meta';
const DUPLICATE_WINDOW_NS = 120 * 1_000_000_000;
/** How long a batch waits for JetStream's acknowledgements (the client's own default for one). */
const PUBLISH_TIMEOUT_MS = 5_000;

/** A subject token for a tenant id: as is when it only holds safe characters, hex otherwise. */
function token(text: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : `x${Buffer.from(text).toString('hex')}`;
}

export function jetStreamName(stream: Pick<StreamRef, 'tenantId' | 'uid'>): string {
  return `RT_${token(stream.tenantId)}_${stream.uid}`;
}

function subject(stream: Pick<StreamRef, 'tenantId' | 'uid'>, partition: number | '*'): string {
  return `rt.${token(stream.tenantId)}.${stream.uid}.${partition}`;
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; api_error?: { code?: number } };
  return e?.code === '404' || e?.code === 404 || e?.api_error?.code === 404 || (typeof e?.message === 'string' && /not found|no message/i.test(e.message));
}

/** Reads above this many messages fetch through a short-lived consumer instead of one direct get each. */
const DIRECT_READ_MAX = 8;
/** How long an abandoned read consumer lingers on the server (it is deleted after each read). */
const READ_CONSUMER_IDLE_NS = nanos(30_000);

function toMessage(stored: Fetched, partition: number): StoredMessage {
  const meta = JSON.parse(stored.meta) as Meta;
  return {
    id: meta.id,
    stream: meta.stream,
    partition,
    offset: stored.seq,
    key: meta.key,
    headers: meta.headers,
    contentType: meta.content_type,
    body: Buffer.from(stored.data),
    publishedAt: new Date(meta.published_at),
    replayOf: meta.replay_of,
    writer: meta.codec !== undefined && meta.codec_revision !== undefined ? { codec: meta.codec, revision: meta.codec_revision } : null,
  };
}

async function rows<T>(db: Db, sql: string, bindings: readonly unknown[]): Promise<T[]> {
  return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;
}

interface IndexRow {
  stream_uid: string;
  partition: number;
  offset: string | number;
}

/** A row of `streams_message_runs` as retention and lookups by id read it. */
interface RunRow {
  last_id: string;
  first_id: string;
  partitions: number[];
  /** Null where retention removed the message. */
  offsets: Array<string | number | null>;
}

const INSERT_RUN = `INSERT INTO streams_message_runs (tenant_id, last_id, first_id, stream_uid, stream, published_at, first_offset, last_offset, partitions, offsets)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?::integer[], ?::bigint[] WHERE EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = ? AND s.uid = ?)`;

const INSERT_REPLAYS = 'INSERT INTO streams_message_replays (tenant_id, replay_of, id) SELECT ?, r.replay_of, r.id FROM unnest(?::text[], ?::text[]) AS r(replay_of, id)';

/** The index's statements for published messages: a run row per run of consecutive ids, then the replay rows (if any). */
function indexStatements(stream: StreamRef, messages: readonly NewMessage[], appended: readonly Appended[], now: Date): { runs: Knex.RawBinding[][]; replays?: Knex.RawBinding[] } {
  const runs = runsOf(messages.map((m) => m.id)).map(([start, end]) => {
    const offsets = appended.slice(start, end).map((a) => a.offset);
    return [
      stream.tenantId, (messages[end - 1] as NewMessage).id, (messages[start] as NewMessage).id, stream.uid, stream.id, now, Math.min(...offsets), Math.max(...offsets),
      messages.slice(start, end).map((m) => m.partition), offsets, stream.tenantId, stream.uid,
    ] as Knex.RawBinding[];
  });
  const replays = messages.filter((m) => m.replayOf !== null);
  if (replays.length === 0) return { runs };
  return { runs, replays: [stream.tenantId, replays.map((m) => m.replayOf), replays.map((m) => m.id)] as Knex.RawBinding[] };
}

const streamGone = (stream: StreamRef) => new ApiError('not_found', `No stream "${stream.id}".`);

/**
 * Indexes published messages: one `streams_message_runs` row per run of consecutive ids (a batch
 * publish is one), plus a row per replay. Only while the stream lives (the caller may have left
 * that check to it): otherwise nothing is written and the publish is refused.
 */
async function indexRuns(db: Db, stream: StreamRef, messages: readonly NewMessage[], appended: readonly Appended[], now: Date): Promise<void> {
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
function addIndexRuns(write: CombinedWrite, stream: StreamRef, messages: readonly NewMessage[], appended: readonly Appended[], now: Date): void {
  if (messages.length === 0) return;
  const { runs, replays } = indexStatements(stream, messages, appended, now);
  runs.forEach((bindings, i) => write.add('streams_message_runs', `${INSERT_RUN} RETURNING 1`, bindings, i === 0 ? { required: streamGone(stream) } : {}));
  if (replays) write.add('streams_message_replays', INSERT_REPLAYS, replays);
}

/**
 * NATS JetStream: one JetStream stream per runtime stream (`RT_<tenant>_<uid>`, subjects
 * `rt.<tenant>.<uid>.<partition>`), messages published (with `Nats-Msg-Id` under an idempotency key) and read by sequence
 * with direct gets. A message's offset is its JetStream sequence: it grows within a partition,
 * with gaps (the sequence is shared by the stream's partitions). What the API finds by id, lists
 * by time or counts as lag comes from `streams_message_runs` in PostgreSQL (one row per batch), written in the
 * publishing call's transaction; retention is the same kernel job as on postgres (purges by
 * sequence per partition subject), so it follows the kernel's clock.
 */
export function natsBackend(url: string): StreamBackend {
  let connection: Promise<Connected> | undefined;

  function nats(): Promise<Connected> {
    connection ??= (async () => {
      // No async traces: the client otherwise builds two Error objects (stack traces) per publish
      // in case its request times out, a fifth of the publishing process's CPU under load.
      const nc = await connect({ servers: url, reconnectTimeWait: 500, noAsyncTraces: true });
      void nc.closed().then(() => {
        connection = undefined;
      });
      return { nc, js: nc.jetstream(), jsm: (await nc.jetstreamManager()) as JetStreamManager & DirectGets, publisher: jetStreamPublisher(nc, PUBLISH_TIMEOUT_MS) };
    })().catch((err: unknown) => {
      connection = undefined;
      throw new ApiError('unavailable', 'The NATS server of the streams backend is unreachable; retry later.', { headers: { 'Retry-After': '5' }, cause: err });
    });
    return connection;
  }

  async function direct(stream: StreamRef, partition: number, fromSeq: number): Promise<Fetched | undefined> {
    const { jsm } = await nats();
    try {
      const found = await jsm.direct.getMessage(jetStreamName(stream), { seq: Math.max(1, fromSeq), next_by_subj: subject(stream, partition) });
      return { seq: found.seq, data: found.data, meta: found.header.get(META_HEADER) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * Up to `limit` messages of a partition from `fromSeq` on, in sequence order. Small reads take
   * direct gets (one round trip each); larger ones one ephemeral consumer filtered to the
   * partition and starting at `fromSeq`, whose creation reports how many messages it has, so the
   * fetch asks for exactly those that exist and never waits for new ones.
   */
  async function readPartition(stream: StreamRef, partition: number, fromSeq: number, limit: number): Promise<Fetched[]> {
    const out: Fetched[] = [];
    let seq = Math.max(1, fromSeq);
    while (out.length < Math.min(limit, DIRECT_READ_MAX)) {
      const found = await direct(stream, partition, seq);
      if (!found) return out;
      out.push(found);
      seq = found.seq + 1;
    }
    if (out.length === limit) return out;
    const { js, jsm } = await nats();
    const name = jetStreamName(stream);
    let info;
    try {
      info = await jsm.consumers.add(name, {
        filter_subject: subject(stream, partition),
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: seq,
        ack_policy: AckPolicy.None,
        mem_storage: true,
        num_replicas: 1,
        inactive_threshold: READ_CONSUMER_IDLE_NS,
      });
    } catch (err) {
      if (isNotFound(err)) return out;
      throw err;
    }
    try {
      const wanted = Math.min(limit - out.length, info.num_pending);
      if (wanted === 0) return out;
      const consumer = await js.consumers.get(name, info.name);
      // A message purged between the count and the fetch only ends the fetch at `expires`, short.
      const messages = await consumer.fetch({ max_messages: wanted, expires: 2_000 });
      for await (const m of messages) {
        out.push({ seq: m.seq, data: m.data, meta: m.headers?.get(META_HEADER) ?? '' });
        if (out.length >= limit) break;
      }
      return out;
    } finally {
      void jsm.consumers.delete(name, info.name).catch(() => undefined);
    }
  }

  /** Removed messages' deliveries, open dead letters and replay records go with their index entries (as on the postgres backend). */
  async function forgetMessages(db: Knex, tenantId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await db('streams_deliveries').where({ tenant_id: tenantId }).whereIn('message_id', ids).delete();
    await db('streams_dead_letters').where({ tenant_id: tenantId }).whereIn('message_id', ids).delete();
    await db('streams_message_replays').where({ tenant_id: tenantId }).whereIn('id', ids).delete();
  }

  /**
   * Removes from the index, within `budget`, the messages of `runs` that `removes` picks (in the
   * order given): their offsets become null, and a run with none left goes. Returns their ids.
   */
  async function removeFromRuns(db: Knex, tenantId: string, runs: readonly RunRow[], removes: (partition: number, offset: number) => boolean, budget: number): Promise<string[]> {
    const removed: string[] = [];
    const emptied: string[] = [];
    for (const run of runs) {
      if (removed.length >= budget) break;
      const offsets = run.offsets.map((o) => (o === null ? null : Number(o)));
      let changed = false;
      offsets.forEach((offset, n) => {
        if (offset === null || removed.length >= budget || !removes(run.partitions[n] as number, offset)) return;
        offsets[n] = null;
        removed.push(idAt(run.first_id, n));
        changed = true;
      });
      if (!changed) continue;
      if (offsets.every((o) => o === null)) emptied.push(run.last_id);
      else await db.raw('UPDATE streams_message_runs SET offsets = ?::bigint[] WHERE tenant_id = ? AND last_id = ?', [offsets as unknown as Knex.RawBinding, tenantId, run.last_id]);
    }
    if (emptied.length > 0) await db('streams_message_runs').where({ tenant_id: tenantId }).whereIn('last_id', emptied).delete();
    await forgetMessages(db, tenantId, removed);
    return removed;
  }

  async function purgeBelow(db: Knex, stream: { tenantId: string; uid: string }, partition: number, keepFrom: number, batch: number): Promise<number> {
    const { jsm } = await nats();
    try {
      await jsm.streams.purge(jetStreamName(stream), { filter: subject(stream, partition), seq: keepFrom });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    // The runs holding the partition's oldest messages below the cut, at most one per message the batch allows.
    const runs = await rows<RunRow>(
      db,
      `SELECT r.last_id, r.first_id, r.partitions, r.offsets FROM streams_message_runs r
        WHERE r.tenant_id = ? AND r.last_id IN (
          SELECT p.last_id FROM streams_message_positions p WHERE p.tenant_id = ? AND p.stream_uid = ? AND p.first_offset < ? AND p.partition = ? AND p."offset" < ?
           GROUP BY p.last_id ORDER BY min(p."offset") LIMIT ?)
        ORDER BY r.first_offset`,
      [stream.tenantId, stream.tenantId, stream.uid, keepFrom, partition, keepFrom, batch],
    );
    const removed = await removeFromRuns(db, stream.tenantId, runs, (p, offset) => p === partition && offset < keepFrom, batch);
    return removed.length;
  }

  /**
   * Publishes the messages with all acknowledgements outstanding at once (one round trip for the
   * batch, not one per message); JetStream stores them in the order sent, so offsets follow it.
   */
  async function publish(stream: StreamRef, messages: readonly NewMessage[], now: Date, dedupKey: string | undefined): Promise<Appended[]> {
    const { publisher } = await nats();
    const publishedAt = now.toISOString();
    const stored = await publisher.publish(
      messages.map((m, index) => {
        const meta: Meta = { id: m.id, stream: stream.id, key: m.key, headers: m.headers, content_type: m.contentType, published_at: publishedAt, replay_of: m.replayOf, ...(m.writer ? { codec: m.writer.codec, codec_revision: m.writer.revision } : {}) };
        const h = natsHeaders();
        h.set(META_HEADER, JSON.stringify(meta));
        // A retried keyed publish (same key, same messages: the same dedupKey) sends the same
        // Nats-Msg-Ids, so JetStream drops what an earlier, uncommitted attempt stored and answers
        // its sequences. A publish without a key is never sent twice (nothing retries it), so a
        // Nats-Msg-Id there would only cost the server a dedup entry.
        if (dedupKey !== undefined) h.set('Nats-Msg-Id', `${stream.uid}:${dedupKey}:${index}`);
        // No expected-stream header: the subject names the stream's uid, so only that JetStream stream takes it.
        return { subject: subject(stream, m.partition), data: m.body, headers: h };
      }),
    );
    const appended = messages.map((m, i) => ({ id: m.id, partition: m.partition, offset: (stored[i] as Stored).seq }));
    // A retry of a keyed publish whose first attempt reached JetStream but whose transaction did
    // not commit: JetStream kept the first attempt's messages, which carry that attempt's ids (a
    // call names its messages afresh). The index and the answer take those ids, or an id would
    // find a message that calls itself by another. Rare, so one direct get per repeated message.
    await Promise.all(
      stored.map(async (s, i) => {
        if (!s.duplicate) return;
        const kept = await direct(stream, (messages[i] as NewMessage).partition, s.seq);
        if (kept?.seq === s.seq) (appended[i] as Appended).id = (JSON.parse(kept.meta) as Meta).id;
      }),
    );
    return appended;
  }

  return {
    name: 'nats',

    async provision(_db, stream) {
      const { jsm } = await nats();
      try {
        await jsm.streams.info(jetStreamName(stream));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await jsm.streams.add({
          name: jetStreamName(stream),
          subjects: [subject(stream, '*')],
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
          discard: DiscardPolicy.Old,
          allow_direct: true,
          duplicate_window: DUPLICATE_WINDOW_NS,
        });
      }
    },

    async discard(db, stream) {
      await db('streams_discarded').insert({ tenant_id: stream.tenantId, stream_uid: stream.uid, discarded_at: db.fn.now() }).onConflict(['tenant_id', 'stream_uid']).ignore();
    },

    async append(db, stream, messages, now, options) {
      if (options.dryRun) return messages.map((m) => ({ id: m.id, partition: m.partition, offset: -1 }));
      const appended = options.published ? [...options.published] : await publish(stream, messages, now, options.dedupKey);
      // Indexed under the ids the stored messages carry (a retried publish's may be an earlier attempt's).
      const indexed = messages.map((m, i) => (m.id === (appended[i] as Appended).id ? m : { ...m, id: (appended[i] as Appended).id }));
      if (options.write) addIndexRuns(options.write, stream, indexed, appended, now);
      else await indexRuns(db, stream, indexed, appended, now);
      return appended;
    },

    publishAhead(stream, messages, now) {
      return publish(stream, messages, now, undefined);
    },

    async read(_db, stream, request) {
      const out: StoredMessage[] = [];
      const first = request.partition ?? request.after?.partition ?? 0;
      const last = request.partition ?? stream.partitions - 1;
      for (let partition = first; partition <= last && out.length < request.limit; partition++) {
        let seq = Math.max(1, request.fromOffset ?? 1);
        if (request.after && partition === request.after.partition) seq = Math.max(seq, request.after.offset + 1);
        if (request.after && partition < request.after.partition) continue;
        for (const found of await readPartition(stream, partition, seq, request.limit - out.length)) out.push(toMessage(found, partition));
      }
      return out;
    },

    async get(db, tenantId, id) {
      // The run holding the id, if any, is the first whose last id is at or after it (runs never overlap).
      const [run] = await rows<RunRow & { stream_uid: string; live: boolean }>(
        db,
        `SELECT r.stream_uid, r.last_id, r.first_id, r.partitions, r.offsets, EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = r.tenant_id AND s.uid = r.stream_uid) AS live
           FROM streams_message_runs r WHERE r.tenant_id = ? AND r.last_id >= ? ORDER BY r.last_id LIMIT 1`,
        [tenantId, id],
      );
      if (!run?.live) return undefined;
      const n = placeIn(run.first_id, run.offsets.length, id);
      const offset = n === undefined ? null : run.offsets[n];
      if (n === undefined || offset === null || offset === undefined) return undefined;
      const partition = run.partitions[n] as number;
      const found = await direct({ tenantId, uid: run.stream_uid } as StreamRef, partition, Number(offset));
      return found && found.seq === Number(offset) ? toMessage(found, partition) : undefined;
    },

    async list(db, tenantId, query) {
      const { where, bindings } = messageFilter(tenantId, query);
      // Runs after the cursor's (ordered by last id, their messages by place): the condition on the
      // run lets the scan start at the cursor instead of at the tenant's first message.
      const after = query.afterId !== undefined ? ' AND m.last_id > ?' : '';
      const found = await rows<IndexRow>(
        db,
        `SELECT m.stream_uid, m.partition, m."offset" FROM streams_message_positions m WHERE ${where}${after} ORDER BY m.last_id, m.n LIMIT ?`,
        [...bindings, ...(query.afterId !== undefined ? [query.afterId] : []), query.limit],
      );
      // Direct gets in parallel: each is a round trip to the server, and a page can hold many.
      const stored = await Promise.all(found.map((row) => direct({ tenantId, uid: row.stream_uid } as StreamRef, row.partition, Number(row.offset))));
      const out: StoredMessage[] = [];
      found.forEach((row, i) => {
        const m = stored[i];
        if (m && m.seq === Number(row.offset)) out.push(toMessage(m, row.partition));
      });
      return out;
    },

    async ends(_db, stream) {
      const { jsm } = await nats();
      const info = await jsm.streams.info(jetStreamName(stream));
      return Array.from({ length: stream.partitions }, () => info.state.last_seq + 1);
    },

    async pending(db, stream, partition, fromOffset) {
      const [row] = await rows<{ n: string | number }>(
        db,
        'SELECT count(*) AS n FROM streams_message_positions WHERE tenant_id = ? AND stream_uid = ? AND last_offset >= ? AND partition = ? AND "offset" >= ?',
        [stream.tenantId, stream.uid, fromOffset, partition, fromOffset],
      );
      return Number(row?.n ?? 0);
    },

    async enforceRetention(db, batch, now) {
      let removed = 0;
      const { jsm } = await nats();
      const discarded = await rows<{ tenant_id: string; stream_uid: string }>(db, 'SELECT tenant_id, stream_uid FROM streams_discarded ORDER BY discarded_at LIMIT 100', []);
      for (const { tenant_id: tenantId, stream_uid: uid } of discarded) {
        try {
          await jsm.streams.delete(jetStreamName({ tenantId, uid }));
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        const runs = await rows<RunRow>(db, 'SELECT last_id, first_id, partitions, offsets FROM streams_message_runs WHERE tenant_id = ? AND stream_uid = ? LIMIT ?', [tenantId, uid, batch - removed]);
        removed += (await removeFromRuns(db, tenantId, runs, () => true, batch - removed)).length;
        if (removed >= batch) return removed;
        await db('streams_consumer_offsets').where({ tenant_id: tenantId, stream_uid: uid }).delete();
        await db('streams_publishes').where({ tenant_id: tenantId, stream_uid: uid }).delete();
        await db('streams_discarded').where({ tenant_id: tenantId, stream_uid: uid }).delete();
      }
      const streams = await rows<{ tenant_id: string; uid: string; partitions: number; max_age_hours: number | null; max_messages: string | number | null }>(
        db,
        'SELECT tenant_id, uid, partitions, max_age_hours, max_messages FROM streams_streams WHERE max_age_hours IS NOT NULL OR max_messages IS NOT NULL ORDER BY tenant_id, id',
        [],
      );
      for (const s of streams) {
        for (let partition = 0; partition < s.partitions && removed < batch; partition++) {
          let keepFrom = 0;
          if (s.max_messages !== null) {
            const nth = await countCut(db, { tenantId: s.tenant_id, uid: s.uid }, partition, Number(s.max_messages));
            if (nth !== undefined) keepFrom = Math.max(keepFrom, nth);
          }
          if (s.max_age_hours !== null) {
            const cut = await ageCut(db, { tenantId: s.tenant_id, uid: s.uid }, partition, new Date(now.getTime() - s.max_age_hours * 3_600_000));
            if (cut !== undefined) keepFrom = Math.max(keepFrom, cut);
          }
          if (keepFrom > 0) removed += await purgeBelow(db, { tenantId: s.tenant_id, uid: s.uid }, partition, keepFrom, batch - removed);
        }
      }
      return removed;
    },

    async close() {
      const open = connection;
      connection = undefined;
      if (open) await (await open.catch(() => undefined))?.nc.drain();
    },
  };
}
