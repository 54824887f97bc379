import type { DashboardSection } from '../dashboard/contract.js';

/** The dashboard's `components` section: components by state, from this plugin's (tenant_id, state, id) index. */
export const componentsSection: DashboardSection = {
  key: 'components',
  async build(db, tenantId) {
    const rows = (await db('components')
      .where({ tenant_id: tenantId })
      .groupBy('state')
      .select('state')
      .count({ n: '*' })) as Array<{ state: string; n: string | number }>;
    const byState: Record<string, number> = {};
    for (const row of rows) byState[row.state] = Number(row.n);
    return { by_state: byState, total: Object.values(byState).reduce((a, b) => a + b, 0) };
  },
};
