import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import {
  ACCOUNT_PERMISSION,
  type AuditTrail,
  auditEntry,
  operationHandlers,
  type TenantCall,
} from '../../kernel/plugin/api.js';
import type { Clock, Handler } from '../../kernel/types.js';
import { BUNDLE_FORMAT, checkBundle, contentHash, type Bundle } from './bundle.js';
import type { MigrationGateCheck, MigrationResource, PromotionContext } from './contract.js';
import type { Operations } from './generated/manifest-types.js';
import { applyDiff, diffOf, gate, resolved, snapshot } from './planner.js';
import { checkSuppliedSecrets } from './supplied-secrets.js';
import { findPlan, insertPlan, markPlanApplied, type PlanRow } from './store.js';

/** An account admin promotes between tenants; anyone else only within the tenant it acts in. */
function checkTarget(call: TenantCall, targetTenantId: string): void {
  if (targetTenantId === call.tenantId) return;
  if (call.principal?.permissions.has(ACCOUNT_PERMISSION)) return;
  throw new ApiError('forbidden', `Promoting into another tenant (${targetTenantId}) needs ${ACCOUNT_PERMISSION}.`);
}

/** Who acts, and the secrets the apply sends (none while planning). */
function contextOf(call: TenantCall, secrets: Readonly<Record<string, unknown>> = {}): PromotionContext {
  return { actorPermissions: call.principal?.permissions ?? new Set<string>(), secrets };
}

function planView(row: PlanRow): Record<string, unknown> {
  return {
    id: row.id,
    target_tenant_id: row.target_tenant_id,
    bundle_hash: row.bundle.hash,
    diff: row.diff,
    gate: row.gate,
    created_at: new Date(row.created_at).toISOString(),
    applied_at: row.applied_at ? new Date(row.applied_at).toISOString() : null,
  };
}

export function migrationHandlers(
  resources: () => MigrationResource[],
  checks: () => readonly MigrationGateCheck[],
  clock: Clock,
  tenantExists: (db: Knex, id: string) => Promise<boolean>,
  audit: AuditTrail,
): Record<string, Handler> {
  async function planOf(
    db: Knex | Knex.Transaction,
    call: TenantCall & { params: { id: string } },
    forUpdate = false,
  ): Promise<PlanRow> {
    const row = await findPlan(db, call.tenantId, call.params.id, forUpdate);
    if (!row) throw new ApiError('not_found', `No migration plan "${call.params.id}".`);
    return row;
  }

  return operationHandlers<Operations>({
    async exportBundle(call) {
      const include = call.body.include;
      const known = resources();
      for (const kind of include ?? []) {
        if (!known.some((r) => r.kind === kind))
          throw new ApiError(
            'validation_error',
            `Nothing promotes "${kind}" here (known: ${known.map((r) => r.kind).join(', ')}).`,
            { details: [{ in: 'body', pointer: '/include', message: `names unknown kind ${kind}` }] },
          );
      }
      const picked = include ? known.filter((r) => include.includes(r.kind)) : known;
      const content = await snapshot(call.db, picked, call.tenantId);
      const bundle: Bundle = {
        format: BUNDLE_FORMAT,
        source_tenant_id: call.tenantId,
        exported_at: clock.now().toISOString(),
        resources: content,
        hash: contentHash(content),
      };
      return { status: 200, body: bundle };
    },

    async createPlan(call) {
      const body = call.body;
      checkTarget(call, body.target_tenant_id);
      if (!(await tenantExists(call.db as Knex, body.target_tenant_id)))
        throw new ApiError('not_found', `No tenant "${body.target_tenant_id}".`);
      const known = resources();
      checkBundle(body.bundle, new Set(known.map((r) => r.kind)));
      const kinds = known.filter((r) => r.kind in body.bundle.resources);
      const target = await snapshot(call.db, kinds, body.target_tenant_id);
      const diff = diffOf(resolved(body.bundle, target), target);
      const checksNow = await gate({
        db: call.db,
        bundle: body.bundle,
        target,
        targetTenantId: body.target_tenant_id,
        diff,
        resources: kinds,
        extraChecks: checks(),
        allowDestructive: false,
        context: contextOf(call),
      });
      const id = `plan_${randomBytes(12).toString('hex')}`;
      call.resourceId = id;
      const row = await insertPlan(call.db, {
        tenant_id: call.tenantId,
        id,
        target_tenant_id: body.target_tenant_id,
        bundle: JSON.stringify(body.bundle),
        diff: JSON.stringify(diff),
        gate: JSON.stringify(checksNow),
        target_fingerprint: contentHash(target),
        created_by: call.principal?.subjectId ?? null,
        created_at: clock.now(),
      });
      return { status: 201, body: planView(row), headers: { Location: `/migration/plans/${id}` } };
    },

    async getPlan(call) {
      return { status: 200, body: planView(await planOf(call.db, call)) };
    },

    async applyPlan(call) {
      const body = call.body;
      const plan = await planOf(call.db, call, true);
      checkTarget(call, plan.target_tenant_id);
      if (plan.applied_at)
        throw new ApiError(
          'conflict',
          `Plan ${plan.id} was applied already (request ${plan.applied_request_id}); make a new plan.`,
        );
      const secrets = body.secrets ?? {};
      checkSuppliedSecrets(secrets, plan.bundle.resources, plan.diff);
      const context = contextOf(call, secrets);
      const kinds = resources().filter((r) => r.kind in plan.bundle.resources);
      // The target's rows are read in the apply transaction, so the drift check and the writes see one state.
      const target = await snapshot(call.db, kinds, plan.target_tenant_id);
      const checksNow = await gate({
        db: call.db,
        bundle: plan.bundle,
        target,
        targetTenantId: plan.target_tenant_id,
        diff: plan.diff,
        resources: kinds,
        extraChecks: checks(),
        allowDestructive: body.allow_destructive === true,
        context,
        plannedFingerprint: plan.target_fingerprint,
      });
      const failed = checksNow.filter((c) => !c.ok);
      if (failed.length > 0) {
        throw new ApiError(
          'promotion_gate_failed',
          `The promotion gate refused: ${failed.map((c) => c.check).join(', ')}.`,
          {
            details: failed.map((c) => ({
              in: 'body',
              pointer: `/gate/${c.check}`,
              message: `${c.check}: ${c.detail}`,
            })),
          },
        );
      }
      const now = clock.now();
      await applyDiff(
        call.db as Knex.Transaction,
        kinds,
        plan.target_tenant_id,
        resolved(plan.bundle, target),
        plan.diff,
        now,
        context,
      );
      await markPlanApplied(call.db, plan.tenant_id, plan.id, now, body.request_id);
      const counts = {
        create: plan.diff.create.length,
        update: plan.diff.update.length,
        delete: plan.diff.delete.length,
      };
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        target_tenant_id: plan.target_tenant_id,
        bundle_hash: plan.bundle.hash,
        ...counts,
      };
      const reply = {
        status: 200,
        body: {
          plan_id: plan.id,
          target_tenant_id: plan.target_tenant_id,
          bundle_hash: plan.bundle.hash,
          applied: counts,
          gate: checksNow,
        },
      };
      // The kernel records the call in the trail of the tenant it acted in (the plan's); the
      // tenant whose resources changed gets its own record in the same transaction, so its trail
      // says what arrived, from where and by whom, and commits with the change or not at all.
      if (plan.target_tenant_id !== plan.tenant_id && audit.enabled) {
        const entry = auditEntry(call, { reply }, now);
        await audit.write(call.db, {
          ...entry,
          tenantId: plan.target_tenant_id,
          resourceId: plan.id,
          // Where the resources came from is the bundle's source; the plan's tenant is only where it was planned.
          detail: {
            ...entry.detail,
            source_tenant_id: plan.bundle.source_tenant_id,
            planned_in_tenant_id: plan.tenant_id,
            received_promotion: true,
          },
        });
      }
      return reply;
    },
  });
}
