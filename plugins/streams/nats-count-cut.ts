import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

async function first<T>(db: Db, sql: string, bindings: readonly unknown[]): Promise<T | undefined> {
  return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows[0];
}

/**
 * The offset of a partition's `max`-th newest message in the nats index (retention by count keeps
 * it and those after it), or undefined when the partition holds no more than `max`.
 *
 * Sorting the partition's offsets would unnest every run of the stream on every retention pass.
 * Instead: walking runs newest first (by `last_offset`, indexed), the first runs that hold `max`
 * of the partition's messages bound the answer from below by their least `first_offset` (those
 * `max` messages are all at or above it). Runs ending below that bound hold nothing newer, so the
 * exact answer is among the runs ending at or above it: about `max` messages' runs, not the stream.
 * Two statements, so the second is planned with the bound's value (an index range, not a scan).
 */
export async function countCut(
  db: Db,
  stream: { tenantId: string; uid: string },
  partition: number,
  max: number,
): Promise<number | undefined> {
  const bound = await first<{ floor: string | number }>(
    db,
    `SELECT r.floor FROM (
       SELECT partitions, offsets, min(first_offset) OVER (ORDER BY last_offset DESC ROWS UNBOUNDED PRECEDING) AS floor
         FROM streams_message_runs WHERE tenant_id = ? AND stream_uid = ? ORDER BY last_offset DESC) r
       CROSS JOIN LATERAL unnest(r.partitions, r.offsets) AS u(partition, "offset")
      WHERE u.partition = ? AND u."offset" IS NOT NULL
     OFFSET ? LIMIT 1`,
    [stream.tenantId, stream.uid, partition, max - 1],
  );
  if (!bound) return undefined;
  const nth = await first<{ offset: string | number }>(
    db,
    'SELECT "offset" FROM streams_message_positions WHERE tenant_id = ? AND stream_uid = ? AND last_offset >= ? AND partition = ? ORDER BY "offset" DESC OFFSET ? LIMIT 1',
    [stream.tenantId, stream.uid, Number(bound.floor), partition, max - 1],
  );
  return nth === undefined ? undefined : Number(nth.offset);
}
