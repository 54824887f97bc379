import type { Knex } from 'knex';
import type { Bundle } from './bundle.js';
import type { Diff } from './planner.js';

type Db = Knex | Knex.Transaction;

/** A promotion plan as stored (migration_plans): the bundle, its diff against the target and its gate. */
export interface PlanRow {
  tenant_id: string;
  id: string;
  target_tenant_id: string;
  bundle: Bundle;
  diff: Diff;
  gate: unknown;
  target_fingerprint: string;
  created_at: Date;
  applied_at: Date | null;
  applied_request_id: string | null;
}

/** A tenant's plan, locked for applying when `forUpdate`; undefined when there is none. */
export async function findPlan(db: Db, tenantId: string, id: string, forUpdate = false): Promise<PlanRow | undefined> {
  const query = db('migration_plans').where({ tenant_id: tenantId, id }).first();
  if (forUpdate) query.forUpdate();
  return (await query) as PlanRow | undefined;
}

export async function insertPlan(db: Db, row: Record<string, unknown>): Promise<PlanRow> {
  const [inserted] = await db('migration_plans').insert(row).returning('*');
  return inserted as PlanRow;
}

export async function markPlanApplied(
  db: Db,
  tenantId: string,
  id: string,
  at: Date,
  requestId: string,
): Promise<void> {
  await db('migration_plans')
    .where({ tenant_id: tenantId, id })
    .update({ applied_at: at, applied_request_id: requestId });
}
