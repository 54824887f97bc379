import type { Knex } from 'knex';
import type { Rule, RuleBody } from './rules.js';

/** The alerts plugin's rules (alerts_rules): what the handlers, evaluation and promotion read and write. */
function rowOf(row: Record<string, unknown>): Rule {
  const iso = (v: unknown) => new Date(v as string).toISOString();
  return {
    ...(row as unknown as Rule),
    threshold: Number(row.threshold),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class RuleStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async get(tenantId: string, id: string, forUpdate = false): Promise<Rule | undefined> {
    const query = this.db('alerts_rules').where({ tenant_id: tenantId, id }).first();
    if (forUpdate) query.forUpdate();
    const row = await query;
    return row ? rowOf(row) : undefined;
  }

  async list(tenantId: string, fetch: number, afterId?: string): Promise<Rule[]> {
    const query = this.db('alerts_rules').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    if (afterId !== undefined) query.andWhere('id', '>', afterId);
    return ((await query) as Record<string, unknown>[]).map(rowOf);
  }

  /** Every rule of every tenant, for the evaluation job. */
  async all(): Promise<Rule[]> {
    return ((await this.db('alerts_rules').orderBy(['tenant_id', 'id'])) as Record<string, unknown>[]).map(rowOf);
  }

  private fields(body: RuleBody): Record<string, unknown> {
    return {
      name: body.name,
      signal: body.signal,
      selector: JSON.stringify(body.selector ?? {}),
      op: body.op,
      threshold: body.threshold,
      for_seconds: body.for_seconds ?? 0,
      severity: body.severity ?? 'warning',
      labels: JSON.stringify(body.labels ?? {}),
      annotations: JSON.stringify(body.annotations ?? {}),
      notify: JSON.stringify(body.notify ?? []),
    };
  }

  async insert(tenantId: string, id: string, body: RuleBody, now: Date): Promise<Rule> {
    const [row] = await this.db('alerts_rules')
      .insert({ tenant_id: tenantId, id, ...this.fields(body), revision: 1, created_at: now, updated_at: now })
      .returning('*');
    return rowOf(row);
  }

  async replace(current: Rule, body: RuleBody, now: Date): Promise<Rule> {
    const [row] = await this.db('alerts_rules')
      .where({ tenant_id: current.tenant_id, id: current.id })
      .update({ ...this.fields(body), revision: current.revision + 1, updated_at: now })
      .returning('*');
    return rowOf(row);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    await this.db('alerts_rules').where({ tenant_id: tenantId, id }).delete();
    // Its open alerts end with it (no notification: the rule that would have resolved them is gone).
    await this.db('alerts_alerts')
      .where({ tenant_id: tenantId, rule_id: id })
      .whereIn('state', ['pending', 'firing'])
      .update({ state: 'resolved', resolved_at: new Date(), updated_at: new Date() });
  }
}
