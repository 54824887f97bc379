import type { AlertSignal } from '../alerts/contract.js';

/** Components in state failed (this plugin's table, read through its (tenant_id, state, id) index), an alert signal. */
export const componentFailed: AlertSignal = {
  name: 'component_failed',
  description: 'Components in state failed: one series per component, value 1.',
  selector: { component: 'Only this component.' },
  async measure(db, tenantId, selector) {
    const query = db('components').where({ tenant_id: tenantId, state: 'failed' }).select('id');
    if (selector.component !== undefined) query.andWhere({ id: selector.component });
    const rows = (await query) as Array<{ id: string }>;
    return rows.map((r) => ({ labels: { component: r.id }, value: 1 }));
  },
};
