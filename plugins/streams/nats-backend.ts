import { headers as natsHeaders, DiscardPolicy, RetentionPolicy, StorageType } from 'nats';
import type { Appended, NewMessage, StoredMessage, StreamBackend, StreamRef } from './backend.js';
import type { Stored } from './jetstream-publisher.js';
import { placeIn } from './message-runs.js';
import { natsConnection } from './nats-connection.js';
import { addIndexRuns, indexRuns, NatsIndexStore } from './nats-index-store.js';
import { META_HEADER, toMessage, type Meta } from './nats-message.js';
import { direct, readPartition } from './nats-reads.js';
import { enforceRetention } from './nats-retention.js';
import { isNotFound, jetStreamName, subject } from './nats-subjects.js';

export { jetStreamName } from './nats-subjects.js';

const DUPLICATE_WINDOW_NS = 120 * 1_000_000_000;

/**
 * NATS JetStream: one JetStream stream per runtime stream (`RT_<tenant>_<uid>`, subjects
 * `rt.<tenant>.<uid>.<partition>`), messages published (with `Nats-Msg-Id` under an idempotency key) and read by sequence
 * with direct gets. A message's offset is its JetStream sequence: it grows within a partition,
 * with gaps (the sequence is shared by the stream's partitions). What the API finds by id, lists
 * by time or counts as lag comes from `streams_message_runs` in PostgreSQL (one row per batch), written in the
 * publishing call's transaction; retention is the same kernel job as on postgres (purges by
 * sequence per partition subject), so it follows the kernel's clock.
 *
 * The pieces are beside it: nats-connection.ts, nats-subjects.ts (names), nats-message.ts (the
 * metadata header), nats-reads.ts, nats-index-store.ts (the index's SQL), nats-retention.ts.
 */
export function natsBackend(url: string): StreamBackend {
  const connection = natsConnection(url);
  const nats = connection.get;

  /**
   * Publishes the messages with all acknowledgements outstanding at once (one round trip for the
   * batch, not one per message); JetStream stores them in the order sent, so offsets follow it.
   */
  async function publish(
    stream: StreamRef,
    messages: readonly NewMessage[],
    now: Date,
    dedupKey: string | undefined,
  ): Promise<Appended[]> {
    const { publisher } = await nats();
    const publishedAt = now.toISOString();
    const stored = await publisher.publish(
      messages.map((m, index) => {
        const meta: Meta = {
          id: m.id,
          stream: stream.id,
          key: m.key,
          headers: m.headers,
          content_type: m.contentType,
          published_at: publishedAt,
          replay_of: m.replayOf,
          ...(m.writer ? { codec: m.writer.codec, codec_revision: m.writer.revision } : {}),
        };
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
        const kept = await direct(nats, stream, (messages[i] as NewMessage).partition, s.seq);
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
      await new NatsIndexStore(db).markDiscarded(stream);
    },

    async append(db, stream, messages, now, options) {
      if (options.dryRun) return messages.map((m) => ({ id: m.id, partition: m.partition, offset: -1 }));
      const appended = options.published
        ? [...options.published]
        : await publish(stream, messages, now, options.dedupKey);
      // Indexed under the ids the stored messages carry (a retried publish's may be an earlier attempt's).
      const indexed = messages.map((m, i) =>
        m.id === (appended[i] as Appended).id ? m : { ...m, id: (appended[i] as Appended).id },
      );
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
        for (const found of await readPartition(nats, stream, partition, seq, request.limit - out.length))
          out.push(toMessage(found, partition));
      }
      return out;
    },

    async get(db, tenantId, id) {
      const run = await new NatsIndexStore(db).runHolding(tenantId, id);
      if (!run?.live) return undefined;
      const n = placeIn(run.first_id, run.offsets.length, id);
      const offset = n === undefined ? null : run.offsets[n];
      if (n === undefined || offset === null || offset === undefined) return undefined;
      const partition = run.partitions[n] as number;
      const found = await direct(nats, { tenantId, uid: run.stream_uid }, partition, Number(offset));
      return found && found.seq === Number(offset) ? toMessage(found, partition) : undefined;
    },

    async list(db, tenantId, query) {
      const found = await new NatsIndexStore(db).positions(tenantId, query);
      // Direct gets in parallel: each is a round trip to the server, and a page can hold many.
      const stored = await Promise.all(
        found.map((row) => direct(nats, { tenantId, uid: row.stream_uid }, row.partition, Number(row.offset))),
      );
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

    pending(db, stream, partition, fromOffset) {
      return new NatsIndexStore(db).pending(stream, partition, fromOffset);
    },

    enforceRetention(db, batch, now) {
      return enforceRetention(nats, db, batch, now);
    },

    close() {
      return connection.close();
    },
  };
}
