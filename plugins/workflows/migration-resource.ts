import type { Knex } from 'knex';
import type { MigrationResource } from '../migration/contract.js';
import type { Definition } from './definition.js';
import { WorkflowStore } from './store.js';

/**
 * Workflows as a promotion resource: the latest revision's definition. What runs (deploys,
 * runs, retries, offsets) stays with each tenant: a promoted workflow arrives as a draft, or as
 * a new revision of the target's (which its next deploy picks up). Order 40: after the streams
 * and components its steps refer to; deleted before them.
 */
export const workflowResource: MigrationResource = {
  kind: 'workflows',
  order: 40,
  async export(db, tenantId) {
    const rows = (await db('workflows_workflows as w')
      .join('workflows_revisions as r', function () {
        this.on('r.tenant_id', '=', 'w.tenant_id')
          .andOn('r.workflow_id', '=', 'w.id')
          .andOn('r.revision', '=', 'w.revision');
      })
      .where('w.tenant_id', tenantId)
      .orderBy('w.id')
      .select('w.id', 'r.definition')) as Array<{ id: string; definition: Definition | string }>;
    return rows.map((r) => ({
      id: r.id,
      content: { definition: typeof r.definition === 'string' ? JSON.parse(r.definition) : r.definition },
    }));
  },
  async apply(trx, tenantId, changes, now) {
    const store = new WorkflowStore(trx as Knex);
    for (const item of changes.create)
      await store.insert(tenantId, item.id, item.content.definition as Definition, null, now);
    for (const item of changes.update) {
      const current = await store.get(tenantId, item.id, { forUpdate: true });
      if (current) await store.revise(tenantId, current, item.content.definition as Definition, null, now);
    }
    for (const id of changes.delete) await store.remove(tenantId, id);
  },
};
