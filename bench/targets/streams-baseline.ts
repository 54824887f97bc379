import { randomBytes } from 'node:crypto';
import { connectDatabase } from '../../kernel/db/connect.js';
import { serveJsonPost } from './serve.js';

/**
 * The baseline of the streams publish benchmark: a hand-written Koa handler that does only the
 * essential work of POST /streams/{id}/messages on the postgres backend — parse the JSON batch,
 * take the partition's offsets from its counter row, one multi-row INSERT, in one transaction.
 */
const database = JSON.parse(process.env.BENCH_DATABASE ?? '{}') as { url?: string; data_dir?: string; schema?: string };
const db = (await connectDatabase({ pool_max: 10, ready_timeout_ms: 1000, ...database })).knex;
const stream = (await db('streams_streams').where({ tenant_id: 'default', id: 'bench' }).first()) as { uid: string };
serveJsonPost('/streams/bench/messages', async (parsed) => {
  const body = parsed as { messages: Array<{ key?: string; value: unknown }> };
  const now = new Date();
  const appended = await db.transaction(async (trx) => {
    const { rows } = (await trx.raw(
      'UPDATE streams_partitions SET next_offset = next_offset + ? WHERE tenant_id = ? AND stream_uid = ? AND partition = 0 RETURNING next_offset',
      [body.messages.length, 'default', stream.uid],
    )) as { rows: Array<{ next_offset: string }> };
    const first = Number(rows[0]?.next_offset) - body.messages.length;
    const values = body.messages.map((m, i) => {
      const bytes = Buffer.from(JSON.stringify(m.value));
      return {
        tenant_id: 'default',
        stream_uid: stream.uid,
        partition: 0,
        offset: first + i,
        id: `msg_${randomBytes(14).toString('hex').slice(0, 27)}`,
        stream: 'bench',
        key: m.key ?? null,
        headers: '{}',
        content_type: 'application/json',
        body: bytes,
        size: bytes.length,
        published_at: now,
        replay_of: null,
      };
    });
    await trx('streams_messages').insert(values);
    return values.map((v) => ({ id: v.id, partition: 0, offset: v.offset }));
  });
  return { status: 201, body: { messages: appended } };
});
