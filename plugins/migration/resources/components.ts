import type { MigrationResource } from '../contract.js';
import { hideSecrets } from '../secrets.js';

/**
 * Components (definition and configuration; never their running state: promoted components
 * start stopped) as a promotion resource. Config fields its component type marks `x-secret`
 * leave as placeholders (when components carry a type). Belongs in the components plugin.
 */
export function componentResource(typeSchema: (type: string) => Record<string, unknown> | undefined): MigrationResource {
  return {
  kind: 'components',
  order: 30,
  async export(db, tenantId) {
    const rows = (await db('components').where({ tenant_id: tenantId }).orderBy('id')) as Array<Record<string, unknown>>;
    return rows.map((r) => {
      const schema = typeof r.type === 'string' ? typeSchema(r.type) : undefined;
      const config = hideSecrets(String(r.id), (r.config ?? {}) as Record<string, unknown>, schema);
      return { id: String(r.id), content: { name: r.name, description: r.description, tags: r.tags, config } };
    });
  },
  async apply(trx, tenantId, changes, now) {
    for (const item of changes.create) {
      const c = item.content;
      await trx('components').insert({ tenant_id: tenantId, id: item.id, name: c.name, description: c.description ?? '', state: 'stopped', tags: c.tags ?? [], config: JSON.stringify(c.config ?? {}), revision: 1, created_at: now, updated_at: now });
    }
    for (const item of changes.update) {
      const c = item.content;
      await trx('components').where({ tenant_id: tenantId, id: item.id }).update({ name: c.name, description: c.description ?? '', tags: c.tags ?? [], config: JSON.stringify(c.config ?? {}), revision: trx.raw('revision + 1'), updated_at: now });
    }
    if (changes.delete.length > 0) await trx('components').where({ tenant_id: tenantId }).whereIn('id', changes.delete).delete();
  },
  };
}
