import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { ACCOUNT_PERMISSION } from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import { BUNDLE_FORMAT, checkBundle, contentHash, type Bundle } from './bundle.js';
import type { MigrationGateCheck, MigrationResource } from './contract.js';
import { applyDiff, diffOf, gate, resolved, snapshot, type Diff } from './planner.js';

function tenant(call: Call): string {
  return call.tenantId as string;
}

/** An account admin promotes between tenants; anyone else only within the tenant it acts in. */
function checkTarget(call: Call, targetTenantId: string): void {
  if (targetTenantId === tenant(call)) return;
  if (call.principal?.permissions.has(ACCOUNT_PERMISSION)) return;
  throw new ApiError('forbidden', `Promoting into another tenant (${targetTenantId}) needs ${ACCOUNT_PERMISSION}.`);
}

interface PlanRow {
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

function planView(row: PlanRow): Record<string, unknown> {
  return {
    id: row.id, target_tenant_id: row.target_tenant_id, bundle_hash: row.bundle.hash, diff: row.diff, gate: row.gate,
    created_at: new Date(row.created_at).toISOString(), applied_at: row.applied_at ? new Date(row.applied_at).toISOString() : null,
  };
}

export function migrationHandlers(resources: () => MigrationResource[], checks: () => readonly MigrationGateCheck[], clock: Clock, tenantExists: (db: Knex, id: string) => Promise<boolean>): Record<string, Handler> {
  async function planOf(db: Knex | Knex.Transaction, call: Call, forUpdate = false): Promise<PlanRow> {
    const query = db('migration_plans').where({ tenant_id: tenant(call), id: String(call.params.id) }).first();
    if (forUpdate) query.forUpdate();
    const row = (await query) as PlanRow | undefined;
    if (!row) throw new ApiError('not_found', `No migration plan "${String(call.params.id)}".`);
    return row;
  }

  return {
    async exportBundle(call) {
      const include = (call.body as { include?: string[] } | undefined)?.include;
      const known = resources();
      for (const kind of include ?? []) {
        if (!known.some((r) => r.kind === kind)) throw new ApiError('validation_error', `Nothing promotes "${kind}" here (known: ${known.map((r) => r.kind).join(', ')}).`, { details: [{ in: 'body', pointer: '/include', message: `names unknown kind ${kind}` }] });
      }
      const picked = include ? known.filter((r) => include.includes(r.kind)) : known;
      const content = await snapshot(call.db, picked, tenant(call));
      const bundle: Bundle = { format: BUNDLE_FORMAT, source_tenant_id: tenant(call), exported_at: clock.now().toISOString(), resources: content, hash: contentHash(content) };
      return { status: 200, body: bundle };
    },

    async createPlan(call) {
      const body = call.body as { bundle: Bundle; target_tenant_id: string };
      checkTarget(call, body.target_tenant_id);
      if (!(await tenantExists(call.db as Knex, body.target_tenant_id))) throw new ApiError('not_found', `No tenant "${body.target_tenant_id}".`);
      const known = resources();
      checkBundle(body.bundle, new Set(known.map((r) => r.kind)));
      const kinds = known.filter((r) => r.kind in body.bundle.resources);
      const target = await snapshot(call.db, kinds, body.target_tenant_id);
      const diff = diffOf(resolved(body.bundle, target), target);
      const checksNow = await gate({ db: call.db, bundle: body.bundle, target, targetTenantId: body.target_tenant_id, diff, resources: kinds, extraChecks: checks(), allowDestructive: false });
      const id = `plan_${randomBytes(12).toString('hex')}`;
      call.resourceId = id;
      const [row] = await call.db('migration_plans')
        .insert({ tenant_id: tenant(call), id, target_tenant_id: body.target_tenant_id, bundle: JSON.stringify(body.bundle), diff: JSON.stringify(diff), gate: JSON.stringify(checksNow), target_fingerprint: contentHash(target), created_by: call.principal?.subjectId ?? null, created_at: clock.now() })
        .returning('*');
      return { status: 201, body: planView(row as PlanRow), headers: { Location: `/migration/plans/${id}` } };
    },

    async getPlan(call) {
      return { status: 200, body: planView(await planOf(call.db, call)) };
    },

    async applyPlan(call) {
      const body = call.body as { request_id: string; allow_destructive?: boolean };
      const plan = await planOf(call.db, call, true);
      checkTarget(call, plan.target_tenant_id);
      if (plan.applied_at) throw new ApiError('conflict', `Plan ${plan.id} was applied already (request ${plan.applied_request_id}); make a new plan.`);
      const kinds = resources().filter((r) => r.kind in plan.bundle.resources);
      // The target's rows are read in the apply transaction, so the drift check and the writes see one state.
      const target = await snapshot(call.db, kinds, plan.target_tenant_id);
      const checksNow = await gate({
        db: call.db, bundle: plan.bundle, target, targetTenantId: plan.target_tenant_id, diff: plan.diff, resources: kinds, extraChecks: checks(),
        allowDestructive: body.allow_destructive === true, plannedFingerprint: plan.target_fingerprint,
      });
      const failed = checksNow.filter((c) => !c.ok);
      if (failed.length > 0) {
        throw new ApiError('promotion_gate_failed', `The promotion gate refused: ${failed.map((c) => c.check).join(', ')}.`, {
          details: failed.map((c) => ({ in: 'body', pointer: `/gate/${c.check}`, message: `${c.check}: ${c.detail}` })),
        });
      }
      const now = clock.now();
      await applyDiff(call.db as Knex.Transaction, kinds, plan.target_tenant_id, resolved(plan.bundle, target), plan.diff, now);
      await call.db('migration_plans').where({ tenant_id: plan.tenant_id, id: plan.id }).update({ applied_at: now, applied_request_id: body.request_id });
      const counts = { create: plan.diff.create.length, update: plan.diff.update.length, delete: plan.diff.delete.length };
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), target_tenant_id: plan.target_tenant_id, bundle_hash: plan.bundle.hash, ...counts };
      return { status: 200, body: { plan_id: plan.id, target_tenant_id: plan.target_tenant_id, bundle_hash: plan.bundle.hash, applied: counts, gate: checksNow } };
    },
  };
}
