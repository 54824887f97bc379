import type { AlertSignal } from '../alerts/contract.js';

/**
 * `workflow_failed` for alert rules: the deployed workflows whose processing is failing now (the
 * worker sets `last_error` when a batch fails — a step that cannot be built, a message that no
 * longer encodes after a forced schema change, a broker gone — and clears it when a batch goes
 * through). The component a failing step or sink is raises `component_failed` besides; this
 * signal also covers failures that are no component's (a built-in step, a stream's codec).
 */
export const workflowFailedSignal: AlertSignal = {
  name: 'workflow_failed',
  description: 'Workflows whose processing is failing (last_error set): one series per workflow, value 1.',
  selector: { workflow: 'Only this workflow.' },
  async measure(db, tenantId, selector) {
    const query = db('workflows_workflows')
      .where({ tenant_id: tenantId })
      .whereNotNull('last_error')
      .whereNotNull('deployed_revision')
      .select('id');
    if (selector.workflow !== undefined) query.andWhere({ id: selector.workflow });
    const rows = (await query) as Array<{ id: string }>;
    return rows.map((r) => ({ labels: { workflow: r.id }, value: 1 }));
  },
};
