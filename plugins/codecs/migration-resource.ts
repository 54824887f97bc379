import type { CodecKind } from './contract.js';
import type { GateCheck, MigrationResource } from '../migration/contract.js';

/**
 * Codecs as a promotion resource, written the way the codecs plugin writes them (a codec row and
 * one revision row per change), contributed to the migration plugin's `migration.resources`.
 */
export function codecResource(kinds: () => readonly CodecKind[]): MigrationResource {
  return {
    kind: 'codecs',
    order: 10,
    async export(db, tenantId) {
      const rows = (await db('codecs').where({ tenant_id: tenantId }).orderBy('id')) as Array<Record<string, unknown>>;
      return rows.map((r) => ({ id: String(r.id), content: { name: r.name, kind: r.kind, schema: r.schema ?? null } }));
    },
    async apply(trx, tenantId, changes, now) {
      for (const item of changes.create) {
        const c = item.content;
        await trx('codecs').insert({
          tenant_id: tenantId,
          id: item.id,
          name: c.name,
          kind: c.kind,
          schema: JSON.stringify(c.schema ?? null),
          revision: 1,
          created_at: now,
          updated_at: now,
        });
        await trx('codecs_revisions').insert({
          tenant_id: tenantId,
          codec_id: item.id,
          revision: 1,
          name: c.name,
          kind: c.kind,
          schema: JSON.stringify(c.schema ?? null),
          forced_problems: null,
          changed_by: 'migration',
          created_at: now,
        });
      }
      for (const item of changes.update) {
        const c = item.content;
        const [row] = await trx('codecs')
          .where({ tenant_id: tenantId, id: item.id })
          .update({
            name: c.name,
            kind: c.kind,
            schema: JSON.stringify(c.schema ?? null),
            revision: trx.raw('revision + 1'),
            updated_at: now,
          })
          .returning('revision');
        await trx('codecs_revisions').insert({
          tenant_id: tenantId,
          codec_id: item.id,
          revision: row.revision,
          name: c.name,
          kind: c.kind,
          schema: JSON.stringify(c.schema ?? null),
          forced_problems: null,
          changed_by: 'migration',
          created_at: now,
        });
      }
      if (changes.delete.length > 0) {
        await trx('codecs_revisions').where({ tenant_id: tenantId }).whereIn('codec_id', changes.delete).delete();
        await trx('codecs').where({ tenant_id: tenantId }).whereIn('id', changes.delete).delete();
      }
    },
    checks(bundle, target) {
      const byId = new Map(target.map((t) => [t.id, t]));
      const problems: string[] = [];
      for (const item of bundle) {
        const current = byId.get(item.id);
        if (!current) continue;
        if (current.content.kind !== item.content.kind) {
          problems.push(
            `${item.id}: kind changes from ${String(current.content.kind)} to ${String(item.content.kind)}`,
          );
          continue;
        }
        const kind = kinds().find((k) => k.kind === item.content.kind);
        if (!kind?.compatibility) continue;
        try {
          for (const p of kind.compatibility(current.content.schema ?? undefined, item.content.schema ?? undefined))
            problems.push(`${item.id}: ${p.path}: ${p.problem}`);
        } catch (err) {
          problems.push(`${item.id}: ${(err as Error).message}`);
        }
      }
      const check: GateCheck = {
        check: 'codec_compatibility',
        ok: problems.length === 0,
        detail:
          problems.length === 0
            ? "every codec schema in the bundle reads data written with the target's"
            : problems.join('; '),
      };
      return [check];
    },
  };
}
