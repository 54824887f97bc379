import type { Knex } from 'knex';
import * as Y from 'yjs';
import { WorkspaceStore } from '../store.js';
import { seedUpdate } from './doc.js';

type Db = Knex | Knex.Transaction;

function bytes(value: Buffer | Uint8Array): Uint8Array {
  return value instanceof Uint8Array
    ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    : new Uint8Array(value);
}

/**
 * A workspace's shared document in the database: a row in `studio_collab_docs` (which file
 * revision it last took in) and its Yjs updates, appended in `studio_collab_updates` and
 * compacted with Y.mergeUpdates. Every instance builds its copy from these rows.
 */
export class CollabStore {
  constructor(private readonly db: Knex) {}

  /**
   * Makes sure the document exists, seeded from the workspace's current files. One seeding
   * wins: the doc row's primary key decides, and the workspace row is read under a share lock so
   * a concurrent PUT .../files either comes first (and is the seed) or waits and then edits the
   * seeded document. Returns false when the workspace does not exist.
   */
  async ensure(tenantId: string, workspaceId: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const workspace = (await trx('studio_workspaces')
        .select('revision')
        .where({ tenant_id: tenantId, id: workspaceId })
        .forShare()
        .first()) as { revision: number } | undefined;
      if (!workspace) return false;
      const exists = await trx('studio_collab_docs')
        .select('revision')
        .where({ tenant_id: tenantId, workspace_id: workspaceId })
        .first();
      if (exists) return true;
      const inserted = (await trx.raw(
        'INSERT INTO studio_collab_docs (tenant_id, workspace_id, revision, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING revision',
        [tenantId, workspaceId, workspace.revision, now],
      )) as { rows: unknown[] };
      if (inserted.rows.length === 0) return true;
      const files = (await new WorkspaceStore(trx).files(tenantId, workspaceId, workspace.revision)) ?? {};
      await this.append(trx, tenantId, workspaceId, seedUpdate(files), now);
      return true;
    });
  }

  async updates(db: Db, tenantId: string, workspaceId: string): Promise<Uint8Array[]> {
    const rows = (await db('studio_collab_updates')
      .select('data')
      .where({ tenant_id: tenantId, workspace_id: workspaceId })
      .orderBy('seq', 'asc')) as Array<{ data: Buffer }>;
    return rows.map((r) => bytes(r.data));
  }

  async append(db: Db, tenantId: string, workspaceId: string, update: Uint8Array, now: Date): Promise<void> {
    await db('studio_collab_updates').insert({
      tenant_id: tenantId,
      workspace_id: workspaceId,
      data: Buffer.from(update),
      created_at: now,
    });
  }

  /** The doc row, locked until `db`'s transaction ends (undefined: no shared document yet). */
  async lock(db: Knex.Transaction, tenantId: string, workspaceId: string): Promise<{ revision: number } | undefined> {
    return (await db('studio_collab_docs')
      .select('revision')
      .where({ tenant_id: tenantId, workspace_id: workspaceId })
      .forUpdate()
      .first()) as { revision: number } | undefined;
  }

  /** Whether the document exists, holding it (against a delete) until `db`'s transaction ends. */
  async share(db: Knex.Transaction, tenantId: string, workspaceId: string): Promise<boolean> {
    return (
      (await db('studio_collab_docs')
        .select('revision')
        .where({ tenant_id: tenantId, workspace_id: workspaceId })
        .forShare()
        .first()) !== undefined
    );
  }

  async setRevision(db: Db, tenantId: string, workspaceId: string, revision: number): Promise<void> {
    await db('studio_collab_docs').where({ tenant_id: tenantId, workspace_id: workspaceId }).update({ revision });
  }

  /**
   * Merges the stored updates into one row (Y.mergeUpdates), under the doc row's lock. The
   * DELETE … RETURNING takes exactly the rows it merges: an update committed meanwhile stays a
   * row of its own. Returns how many rows were merged.
   */
  async compact(tenantId: string, workspaceId: string, now: Date): Promise<number> {
    return this.db.transaction(async (trx) => {
      if (!(await this.lock(trx, tenantId, workspaceId))) return 0;
      const deleted = (await trx.raw(
        'DELETE FROM studio_collab_updates WHERE tenant_id = ? AND workspace_id = ? RETURNING seq, data',
        [tenantId, workspaceId],
      )) as { rows: Array<{ seq: string | number; data: Buffer }> };
      const rows = deleted.rows;
      if (rows.length < 2) {
        // Nothing to merge: put back what was taken.
        for (const row of rows)
          await trx('studio_collab_updates').insert({
            tenant_id: tenantId,
            workspace_id: workspaceId,
            seq: row.seq,
            data: row.data,
            created_at: now,
          });
        return 0;
      }
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      const merged = Y.mergeUpdates(rows.map((r) => bytes(r.data)));
      const last = rows[rows.length - 1] as { seq: string | number };
      await trx('studio_collab_updates').insert({
        tenant_id: tenantId,
        workspace_id: workspaceId,
        seq: last.seq,
        data: Buffer.from(merged),
        created_at: now,
      });
      return rows.length;
    });
  }

  async count(tenantId: string, workspaceId: string): Promise<number> {
    const row = (await this.db('studio_collab_updates')
      .count<{ n: string | number }[]>({ n: '*' })
      .where({ tenant_id: tenantId, workspace_id: workspaceId })
      .first()) as { n: string | number } | undefined;
    return Number(row?.n ?? 0);
  }
}
