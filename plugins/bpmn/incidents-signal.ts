import type { AlertSignal } from '../alerts/contract.js';

/**
 * `incidents` for alert rules: open incidents per process (index (tenant_id, state, id) on
 * incidents, then each instance by its primary key). A process without open incidents has no series.
 */
export const incidentsSignal: AlertSignal = {
  name: 'incidents',
  description: 'Open BPMN incidents: one series per process id, the count as its value.',
  selector: { process: 'Only instances of this process id.', definition: 'Only instances of this definition key.' },
  async measure(db, tenantId, selector) {
    const query = db('bpmn_incidents as x')
      .join('bpmn_instances as i', function () {
        this.on('i.tenant_id', '=', 'x.tenant_id').andOn('i.id', '=', 'x.instance_id');
      })
      .where({ 'x.tenant_id': tenantId, 'x.state': 'open' })
      .groupBy('i.process_id')
      .select('i.process_id')
      .count({ n: '*' });
    if (selector.process !== undefined) query.andWhere('i.process_id', selector.process);
    if (selector.definition !== undefined) query.andWhere('i.definition_key', selector.definition);
    const rows = (await query) as Array<{ process_id: string; n: string | number }>;
    return rows.map((r) => ({ labels: { process: r.process_id }, value: Number(r.n) }));
  },
};
