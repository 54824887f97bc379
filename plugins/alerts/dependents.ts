import type { Dependent, DependentsSource } from '../../kernel/plugin/api.js';

/** Alert rules that watch a stream or component (their selector) or notify through a component. */
export const alertRuleDependents: DependentsSource = {
  async of(db, tenantId, resource) {
    if (resource.kind !== 'stream' && resource.kind !== 'component') return [];
    const rows = (await db('alerts_rules')
      .where({ tenant_id: tenantId })
      .andWhere((q) => {
        q.whereRaw('selector->>? = ?', [resource.kind, resource.id]);
        if (resource.kind === 'component')
          q.orWhereRaw('notify @> ?::jsonb', [JSON.stringify([{ component: resource.id }])]);
      })
      .orderBy('id')
      .select('id', 'selector')) as Array<{ id: string; selector: Record<string, string> }>;
    return rows.map(
      (r): Dependent => ({
        kind: 'alert rule',
        id: r.id,
        via: r.selector[resource.kind] === resource.id ? 'selector' : 'notify',
      }),
    );
  },
};
