import type { WebhookAllowance } from './outbound-guard.js';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import {
  afterKey,
  isUniqueViolation,
  operationHandlers,
  pageOf,
  slugify,
  type TenantCall,
} from '../../kernel/plugin/api.js';
import type { Clock, Handler } from '../../kernel/types.js';
import type { AlertSignal } from './contract.js';
import type { ComponentNotifier } from './component-sink.js';
import type { Operations } from './generated/manifest-types.js';
import { checkRule } from './rules.js';
import { RuleStore } from './rule-store.js';
import { ackAlert, expireSilence, insertSilence, listAlerts, listSilences } from './store.js';

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

function alertView(row: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.id,
    rule_id: row.rule_id,
    state: row.state,
    labels: row.labels,
    annotations: row.annotations,
    value: Number(row.value),
    started_at: iso(row.started_at),
    fired_at: iso(row.fired_at),
    resolved_at: iso(row.resolved_at),
    acked_at: iso(row.acked_at),
    acked_by: row.acked_by ?? null,
    silenced: row.silenced,
  };
}

function silenceView(row: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.id,
    matchers: row.matchers,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    comment: row.comment,
    created_by: row.created_by ?? null,
    created_at: iso(row.created_at),
  };
}

export function alertHandlers(
  signals: () => ReadonlyMap<string, AlertSignal>,
  clock: Clock,
  allowPrivate: WebhookAllowance,
  notifier: ComponentNotifier,
): Record<string, Handler> {
  async function ruleOf(call: TenantCall & { params: { id: string } }, forUpdate = false) {
    const rule = await new RuleStore(call.db).get(call.tenantId, call.params.id, forUpdate);
    if (!rule) throw new ApiError('not_found', `No alert rule "${call.params.id}".`);
    return rule;
  }

  return operationHandlers<Operations>({
    listAlertSignals(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const items = [...signals().values()]
        .map((s) => ({ name: s.name, description: s.description, selector: s.selector }))
        .sort((a, b) => a.name.localeCompare(b.name))
        .filter((s) => after === undefined || s.name > after);
      return { status: 200, body: { items: items.slice(0, page.fetch) } };
    },

    async listAlertRules(call) {
      const page = pageOf(call);
      return {
        status: 200,
        body: { items: await new RuleStore(call.db).list(call.tenantId, page.fetch, afterKey(page)) },
      };
    },

    async createAlertRule(call) {
      const body = call.body;
      checkRule(body, signals(), allowPrivate);
      await notifier.check(call.db, call.tenantId, body.notify ?? []);
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      call.resourceId = id;
      try {
        const rule = await new RuleStore(call.db).insert(call.tenantId, id, body, clock.now());
        return { status: 201, body: rule, headers: { Location: `/alerts/rules/${id}` } };
      } catch (err) {
        if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `An alert rule "${id}" exists already.`);
        throw err;
      }
    },

    async getAlertRule(call) {
      return { status: 200, body: await ruleOf(call) };
    },

    async replaceAlertRule(call) {
      const current = await ruleOf(call, true);
      const body = call.body;
      checkRule(body, signals(), allowPrivate);
      await notifier.check(call.db, call.tenantId, body.notify ?? []);
      return { status: 200, body: await new RuleStore(call.db).replace(current, body, clock.now()) };
    },

    async deleteAlertRule(call) {
      const rule = await ruleOf(call, true);
      await new RuleStore(call.db).remove(rule.tenant_id, rule.id);
      return { status: 204 };
    },

    async listAlerts(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const filter = {
        ...(typeof call.query.state === 'string' ? { state: call.query.state } : {}),
        ...(typeof call.query.rule === 'string' ? { rule: call.query.rule } : {}),
      };
      const rows = await listAlerts(call.db, call.tenantId, filter, page.fetch, after);
      return { status: 200, body: { items: rows.map(alertView) } };
    },

    async ackAlert(call) {
      const id = call.params.id;
      const row = await ackAlert(call.db, call.tenantId, id, clock.now(), call.principal?.subjectId ?? null);
      if (!row) throw new ApiError('not_found', `No alert "${id}".`);
      return { status: 200, body: alertView(row) };
    },

    async createSilence(call) {
      const body = call.body;
      const now = clock.now();
      const startsAt = body.starts_at ? new Date(body.starts_at) : now;
      const endsAt = new Date(body.ends_at);
      if (!(endsAt > startsAt))
        throw new ApiError('validation_error', 'A silence must end after it starts.', {
          details: [{ in: 'body', pointer: '/ends_at', message: 'is not after starts_at' }],
        });
      const id = `sil_${randomBytes(12).toString('hex')}`;
      call.resourceId = id;
      const row = await insertSilence(call.db, {
        tenant_id: call.tenantId,
        id,
        matchers: JSON.stringify(body.matchers),
        starts_at: startsAt,
        ends_at: endsAt,
        comment: body.comment ?? '',
        created_by: call.principal?.subjectId ?? null,
        created_at: now,
      });
      return { status: 201, body: silenceView(row) };
    },

    async listSilences(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const rows = await listSilences(call.db, call.tenantId, page.fetch, after);
      return { status: 200, body: { items: rows.map(silenceView) } };
    },

    async expireSilence(call) {
      const id = call.params.id;
      const now = clock.now();
      const row = await expireSilence(call.db, call.tenantId, id, now);
      if (!row) throw new ApiError('not_found', `No silence "${id}".`);
      return { status: 204 };
    },
  });
}
