import type { Knex } from 'knex';
import { Gauge, type Registry } from 'prom-client';

/**
 * `runtime_alerts{tenant_id, rule_id, severity, state}`: open alerts (pending or firing) per rule,
 * read from the database at scrape time, so every instance shows the same figures whichever one
 * evaluates.
 */
export function alertGauge(registry: Registry, db: Knex): Gauge {
  return new Gauge({
    name: 'runtime_alerts',
    help: 'Open alerts (pending or firing) per tenant, rule, severity and state.',
    labelNames: ['tenant_id', 'rule_id', 'severity', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await db('alerts_alerts as a')
        .join('alerts_rules as r', function () {
          this.on('r.tenant_id', 'a.tenant_id').andOn('r.id', 'a.rule_id');
        })
        .whereIn('a.state', ['pending', 'firing'])
        .groupBy('a.tenant_id', 'a.rule_id', 'r.severity', 'a.state')
        .select('a.tenant_id', 'a.rule_id', 'r.severity', 'a.state')
        .count({ n: '*' })) as Array<{ tenant_id: string; rule_id: string; severity: string; state: string; n: string | number }>;
      for (const row of rows) this.set({ tenant_id: row.tenant_id, rule_id: row.rule_id, severity: row.severity, state: row.state }, Number(row.n));
    },
  });
}
