import { AckPolicy, DeliverPolicy, nanos } from 'nats';
import type { StreamRef } from './backend.js';
import type { Connected } from './nats-connection.js';
import { META_HEADER, type Fetched } from './nats-message.js';
import { isNotFound, jetStreamName, subject } from './nats-subjects.js';

/** Reads above this many messages fetch through a short-lived consumer instead of one direct get each. */
const DIRECT_READ_MAX = 8;
/** How long an abandoned read consumer lingers on the server (it is deleted after each read). */
const READ_CONSUMER_IDLE_NS = nanos(30_000);

/** The partition's first message at or after `fromSeq`, by direct get (no consumer, one round trip). */
export async function direct(
  nats: () => Promise<Connected>,
  stream: Pick<StreamRef, 'tenantId' | 'uid'>,
  partition: number,
  fromSeq: number,
): Promise<Fetched | undefined> {
  const { jsm } = await nats();
  try {
    const found = await jsm.direct.getMessage(jetStreamName(stream), {
      seq: Math.max(1, fromSeq),
      next_by_subj: subject(stream, partition),
    });
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
export async function readPartition(
  nats: () => Promise<Connected>,
  stream: StreamRef,
  partition: number,
  fromSeq: number,
  limit: number,
): Promise<Fetched[]> {
  const out: Fetched[] = [];
  let seq = Math.max(1, fromSeq);
  while (out.length < Math.min(limit, DIRECT_READ_MAX)) {
    const found = await direct(nats, stream, partition, seq);
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
