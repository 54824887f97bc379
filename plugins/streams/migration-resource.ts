import { randomBytes } from 'node:crypto';
import type { MigrationResource } from '../migration/contract.js';

/**
 * Streams (definitions, never messages) as a promotion resource, written as the streams plugin
 * writes them: a new uid and one counter row per partition; a deleted stream's uid goes to
 * streams_discarded for the retention job. Contributed to `migration.resources`.
 */
export const streamResource = (streamsChanged: () => void): MigrationResource => ({
  kind: 'streams',
  order: 20,
  async export(db, tenantId) {
    const rows = (await db('streams_streams').where({ tenant_id: tenantId }).orderBy('id')) as Array<
      Record<string, unknown>
    >;
    return rows.map((r) => ({
      id: String(r.id),
      content: {
        name: r.name,
        partitions: r.partitions,
        max_age_hours: r.max_age_hours ?? null,
        max_messages: r.max_messages === null || r.max_messages === undefined ? null : Number(r.max_messages),
        codec: r.codec ?? null,
      },
    }));
  },
  async apply(trx, tenantId, changes, now) {
    streamsChanged();
    const partitionsFrom = async (uid: string, from: number, to: number) => {
      for (let p = from; p < to; p++)
        await trx('streams_partitions').insert({ tenant_id: tenantId, stream_uid: uid, partition: p, next_offset: 0 });
    };
    for (const item of changes.create) {
      const c = item.content;
      const uid = randomBytes(12).toString('hex');
      await trx('streams_streams').insert({
        tenant_id: tenantId,
        id: item.id,
        uid,
        name: c.name,
        partitions: c.partitions,
        max_age_hours: c.max_age_hours,
        max_messages: c.max_messages,
        codec: c.codec,
        revision: 1,
        created_at: now,
        updated_at: now,
      });
      await partitionsFrom(uid, 0, Number(c.partitions));
    }
    for (const item of changes.update) {
      const c = item.content;
      const current = await trx('streams_streams')
        .where({ tenant_id: tenantId, id: item.id })
        .first('uid', 'partitions');
      // Partitions only grow: a bundle with fewer keeps the target's.
      const partitions = Math.max(Number(current.partitions), Number(c.partitions));
      await trx('streams_streams')
        .where({ tenant_id: tenantId, id: item.id })
        .update({
          name: c.name,
          partitions,
          max_age_hours: c.max_age_hours,
          max_messages: c.max_messages,
          codec: c.codec,
          revision: trx.raw('revision + 1'),
          updated_at: now,
        });
      await partitionsFrom(current.uid, Number(current.partitions), partitions);
    }
    for (const id of changes.delete) {
      const current = await trx('streams_streams').where({ tenant_id: tenantId, id }).first('uid');
      if (!current) continue;
      await trx('streams_discarded')
        .insert({ tenant_id: tenantId, stream_uid: current.uid, discarded_at: now })
        .onConflict(['tenant_id', 'stream_uid'])
        .ignore();
      await trx('streams_streams').where({ tenant_id: tenantId, id }).delete();
    }
  },
});
