import { COMPONENT_TARGET } from './component-sink.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { canonicalJson, type Lease, type Leases } from '../../kernel/plugin/api.js';
import { alertmanagerBody } from './alertmanager.js';
import type { AlertSignal } from './contract.js';
import { holds, type Rule } from './rules.js';
import { RuleStore } from './rule-store.js';
import { activeSilences, insertAlert, lockOpenAlerts, queueNotification, updateAlert } from './store.js';

export interface EvaluationDeps {
  db: Knex;
  leases: Leases;
  signals: () => ReadonlyMap<string, AlertSignal>;
  now: () => Date;
  externalUrl: string;
}

interface OpenAlert {
  id: string;
  fingerprint: string;
  state: 'pending' | 'firing';
  started_at: Date;
  fired_at: Date | null;
  notified: boolean;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

interface Silence {
  matchers: Array<{ name: string; value: string }>;
}

function fingerprintOf(labels: Record<string, string>): string {
  return createHash('sha256').update(canonicalJson(labels)).digest('hex').slice(0, 16);
}

function silencedBy(silences: readonly Silence[], labels: Record<string, string>): boolean {
  return silences.some((s) => s.matchers.every((m) => labels[m.name] === m.value));
}

/** The labels of an alert: the rule's identity and labels, then the series' own. */
function alertLabels(rule: Rule, series: Record<string, string>): Record<string, string> {
  return {
    ...rule.labels,
    ...series,
    alertname: rule.name,
    severity: rule.severity,
    rule_id: rule.id,
    tenant_id: rule.tenant_id,
  };
}

/** Queues one notification per target of the rule, in the evaluation's transaction. */
async function enqueue(
  trx: Knex.Transaction,
  rule: Rule,
  alert: {
    id: string;
    status: 'firing' | 'resolved';
    labels: Record<string, string>;
    startsAt: Date;
    endsAt?: Date;
    fingerprint: string;
  },
  deps: EvaluationDeps,
  now: Date,
): Promise<void> {
  const body = alertmanagerBody(
    { ...alert, annotations: rule.annotations },
    `${rule.tenant_id}/${rule.id}`,
    deps.externalUrl,
  );
  for (const target of rule.notify) {
    await queueNotification(trx, {
      tenant_id: rule.tenant_id,
      alert_id: alert.id,
      status: alert.status,
      url: target.component !== undefined ? `${COMPONENT_TARGET}${target.component}` : target.webhook_url,
      payload: JSON.stringify(body),
      next_at: now,
    });
  }
}

/**
 * One rule's step of the state machine, in one transaction committed only while the lease is
 * still ours: a series meeting the condition opens a pending alert, which fires once it has met
 * it for `for_seconds`; a firing alert whose series no longer meets it resolves. Firing and
 * resolved each queue one notification per target, unless a silence matches the alert.
 */
async function evaluateRule(rule: Rule, signal: AlertSignal, lease: Lease, deps: EvaluationDeps): Promise<void> {
  await deps.db.transaction(async (trx) => {
    if (!(await deps.leases.fence(trx, lease))) return;
    const now = deps.now();
    const series = await signal.measure(trx, rule.tenant_id, rule.selector, now);
    const meeting = new Map<string, { labels: Record<string, string>; value: number }>();
    for (const s of series) {
      if (!holds(rule.op, s.value, rule.threshold)) continue;
      const labels = alertLabels(rule, s.labels);
      meeting.set(fingerprintOf(labels), { labels, value: s.value });
    }
    const open = await lockOpenAlerts<OpenAlert>(trx, rule.tenant_id, rule.id);
    const silences = await activeSilences<Silence>(trx, rule.tenant_id, now);
    const byFingerprint = new Map(open.map((a) => [a.fingerprint, a]));

    for (const [fingerprint, { labels, value }] of meeting) {
      let alert = byFingerprint.get(fingerprint);
      if (!alert) {
        const id = `alt_${randomBytes(12).toString('hex')}`;
        await insertAlert(trx, {
          tenant_id: rule.tenant_id,
          id,
          rule_id: rule.id,
          fingerprint,
          state: 'pending',
          labels: JSON.stringify(labels),
          annotations: JSON.stringify(rule.annotations),
          value,
          started_at: now,
          updated_at: now,
        });
        alert = {
          id,
          fingerprint,
          state: 'pending',
          started_at: now,
          fired_at: null,
          notified: false,
          labels,
          annotations: rule.annotations,
        };
      } else {
        await updateAlert(trx, rule.tenant_id, alert.id, { value, updated_at: now });
      }
      if (
        alert.state === 'pending' &&
        now.getTime() - new Date(alert.started_at).getTime() >= rule.for_seconds * 1000
      ) {
        const silenced = silencedBy(silences, labels);
        await updateAlert(trx, rule.tenant_id, alert.id, {
          state: 'firing',
          fired_at: now,
          notified: !silenced,
          silenced,
          updated_at: now,
        });
        if (!silenced)
          await enqueue(trx, rule, { id: alert.id, status: 'firing', labels, startsAt: now, fingerprint }, deps, now);
      }
    }

    for (const alert of open) {
      if (meeting.has(alert.fingerprint)) continue;
      await updateAlert(trx, rule.tenant_id, alert.id, { state: 'resolved', resolved_at: now, updated_at: now });
      // A resolved notification follows only a firing one that was sent: a silenced alert stays quiet to its end.
      if (alert.state === 'firing' && alert.notified) {
        await enqueue(
          trx,
          rule,
          {
            id: alert.id,
            status: 'resolved',
            labels: alert.labels,
            startsAt: new Date(alert.fired_at ?? alert.started_at),
            endsAt: now,
            fingerprint: alert.fingerprint,
          },
          deps,
          now,
        );
      }
    }
  });
}

/** Evaluates every rule of every tenant whose signal an enabled plugin measures. */
export async function evaluateAll(lease: Lease, signal: AbortSignal, deps: EvaluationDeps): Promise<void> {
  const signals = deps.signals();
  for (const rule of await new RuleStore(deps.db).all()) {
    if (signal.aborted) return;
    const measured = signals.get(rule.signal);
    if (measured) await evaluateRule(rule, measured, lease, deps);
  }
}
