import type { Knex } from 'knex';
import { countCut } from './nats-count-cut.js';

type Db = Knex | Knex.Transaction;

async function first<T>(db: Db, sql: string, bindings: readonly unknown[]): Promise<T | undefined> {
  return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows[0];
}

/**
 * Where retention by age cuts a partition in the nats index: the offset of its first message
 * published at or after `cutoff`, or one past its last when all are older; undefined when it holds
 * none. Messages below the cut go, even a younger one's older neighbours above it stay.
 *
 * Taking the minimum over the partition's messages would unnest every run of the stream on every
 * pass. Instead: the last offset is the newest (countCut with 1, from the top of the offset index).
 * Then, walking runs by `first_offset` (migration 008), the first young run holding one of the
 * partition's messages gives an offset at or above the answer; the run holding the answer starts
 * at or below it, so the answer is the least young offset of the partition among runs starting
 * there or lower: the runs below the cut (what retention removes) and those interleaved with it.
 * A run starts at or below all its offsets, so the walk never needs to pass the last offset.
 * Two statements, so the second is planned with the bound's value (an index range, not a scan).
 */
export async function ageCut(
  db: Db,
  stream: { tenantId: string; uid: string },
  partition: number,
  cutoff: Date,
): Promise<number | undefined> {
  const last = await countCut(db, stream, partition, 1);
  if (last === undefined) return undefined;
  const young = await first<{ offset: string | number }>(
    db,
    `SELECT u."offset" FROM (
       SELECT partitions, offsets FROM streams_message_runs
        WHERE tenant_id = ? AND stream_uid = ? AND first_offset <= ? AND published_at >= ? ORDER BY first_offset) r
       CROSS JOIN LATERAL unnest(r.partitions, r.offsets) AS u(partition, "offset")
      WHERE u.partition = ? AND u."offset" IS NOT NULL
     LIMIT 1`,
    [stream.tenantId, stream.uid, last, cutoff, partition],
  );
  if (!young) return last + 1;
  const cut = await first<{ offset: string | number }>(
    db,
    'SELECT min("offset") AS "offset" FROM streams_message_positions WHERE tenant_id = ? AND stream_uid = ? AND first_offset <= ? AND published_at >= ? AND partition = ?',
    [stream.tenantId, stream.uid, Number(young.offset), cutoff, partition],
  );
  return Number(cut?.offset ?? young.offset);
}
