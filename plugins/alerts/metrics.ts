import type { Knex } from 'knex';
import { Gauge, type Registry } from 'prom-client';
import { countOpenAlerts } from './store.js';

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
      const rows = await countOpenAlerts(db);
      for (const row of rows)
        this.set(
          { tenant_id: row.tenant_id, rule_id: row.rule_id, severity: row.severity, state: row.state },
          Number(row.n),
        );
    },
  });
}
