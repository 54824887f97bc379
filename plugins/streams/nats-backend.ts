import type { Knex } from 'knex';
import { connect, headers as natsHeaders, nanos, AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type MsgHdrs, type NatsConnection } from 'nats';
import { ApiError } from '../../kernel/errors.js';
import type { Appended, NewMessage, StoredMessage, StreamBackend, StreamRef } from './backend.js';
import { messageFilter } from './message-query.js';

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
  tenant_id: string;
  partition: number;
  offset: string | number;
}

/**
 * NATS JetStream: one JetStream stream per runtime stream (`RT_<tenant>_<uid>`, subjects
 * `rt.<tenant>.<uid>.<partition>`), messages published with `Nats-Msg-Id` and read by sequence
 * with direct gets. A message's offset is its JetStream sequence: it grows within a partition,
 * with gaps (the sequence is shared by the stream's partitions). What the API finds by id, lists
 * by time or counts as lag comes from `streams_message_index` in PostgreSQL, written in the
 * publishing call's transaction; retention is the same kernel job as on postgres (purges by
 * sequence per partition subject), so it follows the kernel's clock.
 */
export function natsBackend(url: string): StreamBackend {
  let connection: Promise<Connected> | undefined;

  function nats(): Promise<Connected> {
    connection ??= (async () => {
      const nc = await connect({ servers: url, reconnectTimeWait: 500 });
      void nc.closed().then(() => {
        connection = undefined;
      });
      return { nc, js: nc.jetstream(), jsm: (await nc.jetstreamManager()) as JetStreamManager & DirectGets };
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

  async function purgeBelow(db: Knex, stream: { tenantId: string; uid: string }, partition: number, keepFrom: number, batch: number): Promise<number> {
    const { jsm } = await nats();
    try {
      await jsm.streams.purge(jetStreamName(stream), { filter: subject(stream, partition), seq: keepFrom });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const deleted = await rows<{ id: string }>(
      db,
      `DELETE FROM streams_message_index WHERE (tenant_id, stream_uid, partition, "offset") IN (
         SELECT tenant_id, stream_uid, partition, "offset" FROM streams_message_index WHERE tenant_id = ? AND stream_uid = ? AND partition = ? AND "offset" < ? ORDER BY "offset" LIMIT ?) RETURNING id`,
      [stream.tenantId, stream.uid, partition, keepFrom, batch],
    );
    if (deleted.length > 0) await db('streams_deliveries').where({ tenant_id: stream.tenantId }).whereIn('message_id', deleted.map((d) => d.id)).delete();
    return deleted.length;
  }

  /**
   * Publishes the messages with all acknowledgements outstanding at once (one round trip for the
   * batch, not one per message); JetStream stores them in the order sent, so offsets follow it.
   */
  async function publish(stream: StreamRef, messages: readonly NewMessage[], now: Date, dedupKey: string | undefined): Promise<Appended[]> {
    const { js } = await nats();
    const publishedAt = now.toISOString();
    const acks = await Promise.all(
      messages.map((m, index) => {
        const meta: Meta = { id: m.id, stream: stream.id, key: m.key, headers: m.headers, content_type: m.contentType, published_at: publishedAt, replay_of: m.replayOf, ...(m.writer ? { codec: m.writer.codec, codec_revision: m.writer.revision } : {}) };
        const h = natsHeaders();
        h.set(META_HEADER, JSON.stringify(meta));
        // A retried publish under the same idempotency key carries the same ids, so JetStream drops the repeats.
        const msgID = dedupKey !== undefined ? `${stream.uid}:${dedupKey}:${index}` : m.id;
        // No expected-stream header: the subject names the stream's uid, so only that JetStream stream takes it.
        return js.publish(subject(stream, m.partition), m.body, { msgID, headers: h });
      }),
    );
    return messages.map((m, i) => ({ id: m.id, partition: m.partition, offset: (acks[i] as { seq: number }).seq }));
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
      // One statement with one array per column rather than a VALUES row per message: eight
      // parameters instead of eight per message, which the database parses and binds far faster.
      await db.raw(
        `INSERT INTO streams_message_index (tenant_id, stream_uid, partition, "offset", id, stream, published_at, replay_of)
         SELECT ?, ?, m.partition, m."offset", m.id, ?, ?, m.replay_of FROM unnest(?::int[], ?::bigint[], ?::text[], ?::text[]) AS m(partition, "offset", id, replay_of)`,
        [stream.tenantId, stream.uid, stream.id, now, messages.map((m) => m.partition), appended.map((a) => a.offset), messages.map((m) => m.id), messages.map((m) => m.replayOf)] as Knex.RawBinding[],
      );
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
      const [row] = await rows<IndexRow>(db, `SELECT m.tenant_id, m.stream_uid, m.partition, m."offset" FROM streams_message_index m WHERE m.tenant_id = ? AND m.id = ? AND EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = m.tenant_id AND s.uid = m.stream_uid)`, [tenantId, id]);
      if (!row) return undefined;
      const ref = { tenantId, uid: row.stream_uid } as StreamRef;
      const found = await direct(ref, row.partition, Number(row.offset));
      return found && found.seq === Number(row.offset) ? toMessage(found, row.partition) : undefined;
    },

    async list(db, tenantId, query) {
      const { where, bindings } = messageFilter(tenantId, query);
      const found = await rows<IndexRow>(db, `SELECT m.tenant_id, m.stream_uid, m.partition, m."offset" FROM streams_message_index m WHERE ${where} ORDER BY m.id LIMIT ?`, [...bindings, query.limit]);
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
      const [row] = await rows<{ n: string | number }>(db, 'SELECT count(*) AS n FROM streams_message_index WHERE tenant_id = ? AND stream_uid = ? AND partition = ? AND "offset" >= ?', [stream.tenantId, stream.uid, partition, fromOffset]);
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
        const gone = await rows<{ id: string }>(db, 'DELETE FROM streams_message_index WHERE (tenant_id, stream_uid, partition, "offset") IN (SELECT tenant_id, stream_uid, partition, "offset" FROM streams_message_index WHERE tenant_id = ? AND stream_uid = ? LIMIT ?) RETURNING id', [tenantId, uid, batch - removed]);
        removed += gone.length;
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
            const [nth] = await rows<{ offset: string | number }>(db, 'SELECT "offset" FROM streams_message_index WHERE tenant_id = ? AND stream_uid = ? AND partition = ? ORDER BY "offset" DESC OFFSET ? LIMIT 1', [s.tenant_id, s.uid, partition, Number(s.max_messages) - 1]);
            if (nth) keepFrom = Math.max(keepFrom, Number(nth.offset));
          }
          if (s.max_age_hours !== null) {
            const cutoff = new Date(now.getTime() - s.max_age_hours * 3_600_000);
            const [edge] = await rows<{ first_young: string | number | null; last: string | number | null }>(
              db,
              'SELECT min("offset") FILTER (WHERE published_at >= ?) AS first_young, max("offset") AS last FROM streams_message_index WHERE tenant_id = ? AND stream_uid = ? AND partition = ?',
              [cutoff, s.tenant_id, s.uid, partition],
            );
            if (edge?.last !== null && edge?.last !== undefined) keepFrom = Math.max(keepFrom, edge.first_young === null ? Number(edge.last) + 1 : Number(edge.first_young));
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
