import type { DependentsSource } from '../../kernel/plugin/api.js';

/** BPMN definitions with a service task that appends to a stream (`implementation="stream:<id>"`). */
export const bpmnDependents: DependentsSource = {
  async of(db, tenantId, resource) {
    if (resource.kind !== 'stream') return [];
    const target = `stream:${resource.id}`;
    const rows = (await db('bpmn_definitions')
      .where({ tenant_id: tenantId })
      .whereRaw('strpos(xml, ?) > 0', [target])
      .orderBy('key')
      .select('key', 'xml')) as Array<{ key: string; xml: string }>;
    const exact = new RegExp(`implementation\\s*=\\s*["']${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`);
    return rows
      .filter((r) => exact.test(r.xml))
      .map((r) => ({ kind: 'BPMN definition', id: r.key, via: 'service task' }));
  },
};
