import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import type { Appended, NewMessage, StreamRef } from './backend.js';

/*
 * Appending on the postgres backend without a transaction's locks taken one by one: each
 * partition's counter moves and its messages go in after it, in one statement, either on their
 * own (one partition) or as parts of a combined write (a source's batch).
 */

/** Moves a partition's counter past `count` messages; its row says the first offset they take. */
const MOVE_COUNTER =
  'UPDATE streams_partitions SET next_offset = next_offset + ? WHERE tenant_id = ? AND stream_uid = ? AND partition = ? RETURNING next_offset - ? AS first';

/** Inserts the messages of a JSON array (one row each, `i` their place) from the offset a counter gives. */
const insertAfter = (
  counter: string,
) => `INSERT INTO streams_messages (tenant_id, stream_uid, partition, "offset", id, stream, key, headers, content_type, body, size, published_at, replay_of, codec, codec_revision)
     SELECT ?, ?, ?, counter.first + v.i, v.id, ?, v.key, v.headers, v.content_type, decode(v.body, 'base64'), octet_length(decode(v.body, 'base64')), ?::timestamptz, v.replay_of, v.codec, v.codec_revision
       FROM ${counter} AS counter, jsonb_to_recordset(?::jsonb) AS v(i integer, id text, key text, headers jsonb, content_type text, body text, replay_of text, codec text, codec_revision integer)`;

/** A partition's messages as the JSON array `insertAfter` reads. */
function rowsJson(messages: readonly NewMessage[]): string {
  return JSON.stringify(
    messages.map((m, i) => ({
      i,
      id: m.id,
      key: m.key,
      headers: m.headers,
      content_type: m.contentType,
      body: m.body.toString('base64'),
      replay_of: m.replayOf,
      codec: m.writer?.codec ?? null,
      codec_revision: m.writer?.revision ?? null,
    })),
  );
}

/**
 * An append as parts of a combined write: per partition (ascending, as the transactional path
 * locks them) its counter moves — required, so a partition that is gone (the stream deleted
 * meanwhile) fails the statement and nothing is written — and its messages go in after it.
 */
export function appendInto(write: CombinedWrite, stream: StreamRef, messages: readonly NewMessage[], now: Date): void {
  const byPartition = new Map<number, NewMessage[]>();
  for (const message of messages) {
    const group = byPartition.get(message.partition);
    if (group) group.push(message);
    else byPartition.set(message.partition, [message]);
  }
  for (const partition of [...byPartition.keys()].sort((a, b) => a - b)) {
    const group = byPartition.get(partition) as NewMessage[];
    const counter = write.add(
      'stream_counter',
      MOVE_COUNTER,
      [group.length, stream.tenantId, stream.uid, partition, group.length],
      { required: () => new ApiError('not_found', `No stream "${stream.id}".`) },
    );
    write.add('stream_messages', insertAfter(counter), [
      stream.tenantId,
      stream.uid,
      partition,
      stream.id,
      now.toISOString(),
      rowsJson(group),
    ]);
  }
}

/**
 * Messages of one partition in one statement: the counter row moves (and stays locked until the
 * transaction ends, as on the general path) and the messages go in after it, numbered in order.
 */
export async function appendToOnePartition(
  db: Knex | Knex.Transaction,
  stream: StreamRef,
  messages: readonly NewMessage[],
  now: Date,
): Promise<Appended[]> {
  const partition = (messages[0] as NewMessage).partition;
  const { rows: inserted } = (await db.raw(
    `WITH counter AS (${MOVE_COUNTER}) ${insertAfter('counter')} RETURNING id, "offset"`,
    [
      messages.length,
      stream.tenantId,
      stream.uid,
      partition,
      messages.length,
      stream.tenantId,
      stream.uid,
      partition,
      stream.id,
      now.toISOString(),
      rowsJson(messages),
    ],
  )) as { rows: Array<{ id: string; offset: string | number }> };
  if (inserted.length !== messages.length) throw new Error(`stream ${stream.id} has no partition ${partition}`);
  const offsets = new Map(inserted.map((r) => [r.id, Number(r.offset)]));
  return messages.map((m) => ({ id: m.id, partition, offset: offsets.get(m.id) as number }));
}
