import type { DashboardSection } from '../dashboard/contract.js';

/** The dashboard's `alerts` section: counts of open alerts and the firing ones (index (tenant_id, state, id)). */
export const alertsSection: DashboardSection = {
  key: 'alerts',
  async build(db, tenantId) {
    const counts = (await db('alerts_alerts')
      .where({ tenant_id: tenantId })
      .whereIn('state', ['pending', 'firing'])
      .groupBy('state')
      .select('state')
      .count({ n: '*' })) as Array<{ state: string; n: string | number }>;
    const firing = (await db('alerts_alerts')
      .where({ tenant_id: tenantId, state: 'firing' })
      .orderBy('id')
      .limit(50)
      .select('id', 'rule_id', 'labels', 'value', 'fired_at', 'acked_at', 'silenced')) as Array<
      Record<string, unknown>
    >;
    const count = (state: string) => Number(counts.find((c) => c.state === state)?.n ?? 0);
    return {
      firing: count('firing'),
      pending: count('pending'),
      items: firing.map((a) => ({
        ...a,
        value: Number(a.value),
        fired_at: a.fired_at ? new Date(a.fired_at as string).toISOString() : null,
        acked_at: a.acked_at ? new Date(a.acked_at as string).toISOString() : null,
      })),
    };
  },
};
