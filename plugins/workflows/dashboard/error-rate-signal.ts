import type { AlertSignal } from '../../alerts/contract.js';

/**
 * `error_rate` for alert rules: per workflow, failed attempts ÷ attempts over the current and the
 * previous hour, from the hourly counters the worker keeps (two rows per workflow at most, read
 * by the primary key (tenant_id, hour, workflow_id)). A workflow without attempts has no series.
 */
export const errorRateSignal: AlertSignal = {
  name: 'error_rate',
  description:
    'Per workflow, failed attempts ÷ attempts over the current and the previous hour (0…1): one series per workflow with attempts.',
  selector: { workflow: 'Only this workflow.' },
  async measure(db, tenantId, selector, now) {
    const since = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - 3_600_000);
    const query = db('workflows_hourly')
      .where({ tenant_id: tenantId })
      .andWhere('hour', '>=', since)
      .groupBy('workflow_id')
      .select('workflow_id')
      .sum({ errors: 'errors', attempts: 'attempts' });
    if (selector.workflow !== undefined) query.andWhere({ workflow_id: selector.workflow });
    const rows = (await query) as Array<{ workflow_id: string; errors: string | number; attempts: string | number }>;
    return rows
      .filter((r) => Number(r.attempts) > 0)
      .map((r) => ({ labels: { workflow: r.workflow_id }, value: Number(r.errors) / Number(r.attempts) }));
  },
};
