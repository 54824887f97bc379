import type { Knex } from 'knex';
import { canonicalJson } from '../../kernel/plugin/api.js';
import { contentHash, type Bundle } from './bundle.js';
import type { BundleItem, GateCheck, MigrationGateCheck, MigrationResource, PromotionContext } from './contract.js';

export interface Change {
  kind: string;
  id: string;
}

export interface Diff {
  create: Change[];
  update: Change[];
  delete: Change[];
}

/** What the target tenant holds now, by kind, in the bundle's shape. */
export async function snapshot(
  db: Knex | Knex.Transaction,
  resources: readonly MigrationResource[],
  tenantId: string,
): Promise<Record<string, BundleItem[]>> {
  const out: Record<string, BundleItem[]> = {};
  for (const r of resources) out[r.kind] = await r.export(db, tenantId);
  return out;
}

/**
 * The bundle's items as they would be written. Secrets stay placeholders on both sides (the
 * components kind keeps the target's sealed values), so this is the bundle's own content.
 */
export function resolved(bundle: Bundle, _target: Record<string, BundleItem[]>): Record<string, BundleItem[]> {
  return bundle.resources;
}

/**
 * Create what the target lacks, update what differs, delete what the target has that the bundle
 * does not (only for kinds the bundle carries: a bundle of codecs alone deletes no streams).
 */
export function diffOf(bundle: Record<string, BundleItem[]>, target: Record<string, BundleItem[]>): Diff {
  const diff: Diff = { create: [], update: [], delete: [] };
  for (const [kind, items] of Object.entries(bundle)) {
    const current = new Map((target[kind] ?? []).map((t) => [t.id, t]));
    for (const item of items) {
      const existing = current.get(item.id);
      if (!existing) diff.create.push({ kind, id: item.id });
      else if (canonicalJson(existing.content) !== canonicalJson(item.content)) diff.update.push({ kind, id: item.id });
      current.delete(item.id);
    }
    for (const id of current.keys()) diff.delete.push({ kind, id });
  }
  return diff;
}

export interface GateInput {
  db: Knex | Knex.Transaction;
  bundle: Bundle;
  target: Record<string, BundleItem[]>;
  targetTenantId: string;
  diff: Diff;
  resources: readonly MigrationResource[];
  extraChecks: readonly MigrationGateCheck[];
  allowDestructive: boolean;
  context: PromotionContext;
  /** The target's fingerprint when the plan was made; absent while planning. */
  plannedFingerprint?: string;
}

/** Every check of the promotion gate, each `{check, ok, detail}`. */
export async function gate(input: GateInput): Promise<GateCheck[]> {
  const checks: GateCheck[] = [];
  const workspaceTests = input.extraChecks.find((c) => c.check === 'workspace_tests');
  if (!workspaceTests)
    checks.push({
      check: 'workspace_tests',
      ok: true,
      detail:
        'no plugin runs workspace tests here (the studio plugin contributes this check); the bundle carries no workspaces',
    });
  for (const extra of input.extraChecks)
    checks.push(
      await extra.run(input.db, { hash: input.bundle.hash, resources: input.bundle.resources }, input.targetTenantId),
    );
  for (const r of input.resources) {
    const items = input.bundle.resources[r.kind];
    if (items && r.checks) checks.push(...r.checks(items, input.target[r.kind] ?? [], input.context));
  }
  if (!checks.some((c) => c.check === 'codec_compatibility'))
    checks.push({ check: 'codec_compatibility', ok: true, detail: 'the bundle carries no codecs' });
  if (!checks.some((c) => c.check === 'secrets_present'))
    checks.push({ check: 'secrets_present', ok: true, detail: 'the bundle carries no secret placeholders' });
  const deletes = input.diff.delete.length;
  checks.push({
    check: 'no_destructive',
    ok: deletes === 0 || input.allowDestructive,
    detail:
      deletes === 0
        ? 'nothing is deleted'
        : `${deletes} delete(s) planned (${input.diff.delete.map((d) => `${d.kind}/${d.id}`).join(', ')})${input.allowDestructive ? ', allowed' : '; apply with allow_destructive: true to allow them'}`,
  });
  if (input.plannedFingerprint !== undefined) {
    const now = contentHash(input.target);
    checks.push({
      check: 'no_drift',
      ok: now === input.plannedFingerprint,
      detail:
        now === input.plannedFingerprint
          ? 'the target is as it was when planned'
          : 'the target changed since the plan was made; plan again',
    });
  } else {
    checks.push({ check: 'no_drift', ok: true, detail: 'checked again at apply' });
  }
  return checks;
}

/** Writes the diff: creates and updates in kind order, deletes in reverse kind order. */
export async function applyDiff(
  trx: Knex.Transaction,
  resources: readonly MigrationResource[],
  targetTenantId: string,
  items: Record<string, BundleItem[]>,
  diff: Diff,
  now: Date,
  context: PromotionContext,
): Promise<void> {
  const ordered = [...resources].sort((a, b) => a.order - b.order);
  const pick = (kind: string, changes: Change[]) => {
    const byId = new Map((items[kind] ?? []).map((i) => [i.id, i]));
    return changes.filter((c) => c.kind === kind).map((c) => byId.get(c.id) as BundleItem);
  };
  for (const r of ordered)
    await r.apply(
      trx,
      targetTenantId,
      { create: pick(r.kind, diff.create), update: pick(r.kind, diff.update), delete: [] },
      now,
      context,
    );
  for (const r of [...ordered].reverse()) {
    const deletes = diff.delete.filter((d) => d.kind === r.kind).map((d) => d.id);
    if (deletes.length > 0)
      await r.apply(trx, targetTenantId, { create: [], update: [], delete: deletes }, now, context);
  }
}
