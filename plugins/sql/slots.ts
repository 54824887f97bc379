import type { Knex } from 'knex';

export interface Slot {
  tenantId: string;
  slot: number;
  holder: string;
}

/**
 * A tenant's concurrent console queries, counted across instances: each running query holds one
 * row of `sql_console_slots` (slot 0 … ceiling−1). A slot is free when it has no row or its row
 * has expired (an instance that died mid-query). Slots are tried in order, each with one
 * statement, so N+1 racing queries end with exactly one left without a slot.
 */
export async function takeSlot(
  knex: Knex,
  tenantId: string,
  ceiling: number,
  holder: string,
  ttlMs: number,
): Promise<Slot | null> {
  for (let slot = 0; slot < ceiling; slot++) {
    const taken = await knex.raw(
      `INSERT INTO sql_console_slots (tenant_id, slot, holder, expires_at) VALUES (?, ?, ?, now() + make_interval(secs => ?))
       ON CONFLICT (tenant_id, slot) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE sql_console_slots.expires_at < now()
       RETURNING slot`,
      [tenantId, slot, holder, ttlMs / 1000],
    );
    if (taken.rows.length > 0) return { tenantId, slot, holder };
  }
  return null;
}

export async function releaseSlot(knex: Knex, slot: Slot): Promise<void> {
  await knex('sql_console_slots').where({ tenant_id: slot.tenantId, slot: slot.slot, holder: slot.holder }).delete();
}
