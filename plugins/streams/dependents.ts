import type { DependentsSource } from '../../kernel/plugin/api.js';

/** Streams that decode with a codec: a codec in use by one is not deleted. */
export const streamDependents: DependentsSource = {
  of: async (db, tenantId, resource) =>
    resource.kind !== 'codec'
      ? []
      : (
          (await db('streams_streams')
            .where({ tenant_id: tenantId, codec: resource.id })
            .orderBy('id')
            .select('id')) as Array<{ id: string }>
        ).map((r) => ({ kind: 'stream', id: r.id, via: 'its codec' })),
};
