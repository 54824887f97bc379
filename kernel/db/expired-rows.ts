import type { Knex } from 'knex';

/**
 * Deletes a table's rows whose `expires_at` is at or before `before`, in batches, each its own
 * short statement: one long DELETE would hold locks and the oldest open snapshot back (and with
 * it the audit sealing). The condition is checked again on the row itself, so a row renewed
 * meanwhile stays. A batch that comes up short ends it; rows another instance was deleting at
 * that moment are left to the next round. Returns how many rows went.
 */
export async function deleteExpiredRows(db: Knex, table: string, before: Date, batch: number): Promise<number> {
  if (!Number.isInteger(batch) || batch < 1)
    throw new RangeError(`purge batch must be a positive integer, not ${batch}`);
  let total = 0;
  for (;;) {
    // Counted in SQL: the embedded driver does not report a DELETE's row count.
    const result = await db.raw(
      `WITH gone AS (
         DELETE FROM ??
          WHERE ctid = ANY (ARRAY(SELECT ctid FROM ?? WHERE expires_at <= ? LIMIT ?)) AND expires_at <= ?
         RETURNING 1
       ) SELECT count(*)::integer AS n FROM gone`,
      [table, table, before, batch, before],
    );
    const n = (result.rows as Array<{ n: number }>)[0]?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}
