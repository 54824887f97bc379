import type { Knex } from 'knex';
import type { WorkflowComponents } from '../workflows/contract.js';

/**
 * What the components plugin gives the workflows plugin (`workflows.components`): a tenant's
 * component by id, as its type and config, for workflow steps and sinks that reference one.
 */
export const workflowComponentsResolver: WorkflowComponents = {
  async resolve(db: Knex | Knex.Transaction, tenantId: string, id: string) {
    const row = (await db('components').where({ tenant_id: tenantId, id }).first()) as { type?: string | null; config: Record<string, unknown> } | undefined;
    if (!row) return undefined;
    return { type: row.type ?? '', config: row.config ?? {} };
  },
};
