import { randomBytes } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { afterKey, isUniqueViolation, pageOf, slugify } from '../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../kernel/types.js';
import type { AlertSignal } from './contract.js';
import type { ComponentNotifier } from './component-sink.js';
import { checkRule, RuleStore, type RuleBody } from './rules.js';

function tenant(call: Call): string {
  return call.tenantId as string;
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

function alertView(row: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.id, rule_id: row.rule_id, state: row.state, labels: row.labels, annotations: row.annotations, value: Number(row.value),
    started_at: iso(row.started_at), fired_at: iso(row.fired_at), resolved_at: iso(row.resolved_at), acked_at: iso(row.acked_at), acked_by: row.acked_by ?? null, silenced: row.silenced,
  };
}

function silenceView(row: Record<string, unknown>): Record<string, unknown> {
  return { id: row.id, matchers: row.matchers, starts_at: iso(row.starts_at), ends_at: iso(row.ends_at), comment: row.comment, created_by: row.created_by ?? null, created_at: iso(row.created_at) };
}

export function alertHandlers(signals: () => ReadonlyMap<string, AlertSignal>, clock: Clock, allowPrivate: boolean, notifier: ComponentNotifier): Record<string, Handler> {
  async function ruleOf(call: Call, forUpdate = false) {
    const rule = await new RuleStore(call.db).get(tenant(call), String(call.params.id), forUpdate);
    if (!rule) throw new ApiError('not_found', `No alert rule "${String(call.params.id)}".`);
    return rule;
  }

  return {
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
      return { status: 200, body: { items: await new RuleStore(call.db).list(tenant(call), page.fetch, afterKey(page)) } };
    },

    async createAlertRule(call) {
      const body = call.body as RuleBody & { id?: string };
      checkRule(body, signals(), allowPrivate);
      await notifier.check(call.db, tenant(call), body.notify ?? []);
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      call.resourceId = id;
      try {
        const rule = await new RuleStore(call.db).insert(tenant(call), id, body, clock.now());
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
      const body = call.body as RuleBody;
      checkRule(body, signals(), allowPrivate);
      await notifier.check(call.db, tenant(call), body.notify ?? []);
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
      const query = call.db('alerts_alerts').where({ tenant_id: tenant(call) }).orderBy('id').limit(page.fetch);
      if (typeof call.query.state === 'string') query.andWhere({ state: call.query.state });
      if (typeof call.query.rule === 'string') query.andWhere({ rule_id: call.query.rule });
      if (after !== undefined) query.andWhere('id', '>', after);
      return { status: 200, body: { items: ((await query) as Record<string, unknown>[]).map(alertView) } };
    },

    async ackAlert(call) {
      const id = String(call.params.id);
      const [row] = await call.db('alerts_alerts')
        .where({ tenant_id: tenant(call), id })
        .update({ acked_at: clock.now(), acked_by: call.principal?.subjectId ?? null, updated_at: clock.now() })
        .returning('*');
      if (!row) throw new ApiError('not_found', `No alert "${id}".`);
      return { status: 200, body: alertView(row) };
    },

    async createSilence(call) {
      const body = call.body as { matchers: Array<{ name: string; value: string }>; starts_at?: string; ends_at: string; comment?: string };
      const now = clock.now();
      const startsAt = body.starts_at ? new Date(body.starts_at) : now;
      const endsAt = new Date(body.ends_at);
      if (!(endsAt > startsAt)) throw new ApiError('validation_error', 'A silence must end after it starts.', { details: [{ in: 'body', pointer: '/ends_at', message: 'is not after starts_at' }] });
      const id = `sil_${randomBytes(12).toString('hex')}`;
      call.resourceId = id;
      const [row] = await call.db('alerts_silences')
        .insert({ tenant_id: tenant(call), id, matchers: JSON.stringify(body.matchers), starts_at: startsAt, ends_at: endsAt, comment: body.comment ?? '', created_by: call.principal?.subjectId ?? null, created_at: now })
        .returning('*');
      return { status: 201, body: silenceView(row) };
    },

    async listSilences(call) {
      const page = pageOf(call);
      const after = afterKey(page);
      const query = call.db('alerts_silences').where({ tenant_id: tenant(call) }).orderBy('id').limit(page.fetch);
      if (after !== undefined) query.andWhere('id', '>', after);
      return { status: 200, body: { items: ((await query) as Record<string, unknown>[]).map(silenceView) } };
    },

    async expireSilence(call) {
      const id = String(call.params.id);
      const now = clock.now();
      const [row] = await call.db('alerts_silences').where({ tenant_id: tenant(call), id }).update({ ends_at: call.db.raw('LEAST(ends_at, ?::timestamptz)', [now]) }).returning('*');
      if (!row) throw new ApiError('not_found', `No silence "${id}".`);
      return { status: 204 };
    },
  };
}
