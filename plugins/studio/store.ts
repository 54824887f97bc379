import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import { sortedFiles, totalBytes, type FileMap } from './files.js';

export interface Workspace {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  revision: number;
  file_count: number;
  bytes: number;
  created_at: string;
  updated_at: string;
}

export interface Revision {
  revision: number;
  file_count: number;
  bytes: number;
  source: 'api' | 'collab';
  changed: string[];
  deleted: string[];
  created_by: string | null;
  created_at: string;
}

export interface NewRevision {
  files: FileMap;
  changed: string[];
  deleted: string[];
  source: 'api' | 'collab';
  createdBy: string | null;
}

interface WorkspaceRow extends Omit<Workspace, 'created_at' | 'updated_at'> {
  uid: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'description',
  'revision',
  'file_count',
  'bytes',
  'created_at',
  'updated_at',
];

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function json<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    description: row.description,
    revision: row.revision,
    file_count: row.file_count,
    bytes: row.bytes,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The studio's workspaces and file revisions. Every query is keyed by tenant first. */
export class WorkspaceStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async list(tenantId: string, filter: { afterId?: string; fetch: number }): Promise<Workspace[]> {
    const query = this.db('studio_workspaces')
      .select(COLUMNS)
      .where({ tenant_id: tenantId })
      .orderBy('id', 'asc')
      .limit(filter.fetch);
    if (filter.afterId !== undefined) query.andWhere('id', '>', filter.afterId);
    return ((await query) as WorkspaceRow[]).map(toWorkspace);
  }

  async get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Workspace | undefined> {
    const query = this.db('studio_workspaces').select(COLUMNS).where({ tenant_id: tenantId, id }).first();
    if (options.forUpdate) query.forUpdate();
    const row = (await query) as WorkspaceRow | undefined;
    return row && toWorkspace(row);
  }

  /** What a run needs first: which revision is current, and the workspace's uid (for the file cache). */
  async head(tenantId: string, id: string): Promise<{ uid: string; revision: number } | undefined> {
    return (await this.db('studio_workspaces').select('uid', 'revision').where({ tenant_id: tenantId, id }).first()) as
      | { uid: string; revision: number }
      | undefined;
  }

  async insert(
    tenantId: string,
    id: string,
    fields: { name: string; description?: string },
    first: NewRevision,
    now: Date,
  ): Promise<Workspace> {
    let row: WorkspaceRow;
    try {
      [row] = (await this.db('studio_workspaces')
        .insert({
          tenant_id: tenantId,
          id,
          uid: randomUUID(),
          name: fields.name,
          description: fields.description ?? '',
          revision: 1,
          file_count: Object.keys(first.files).length,
          bytes: totalBytes(first.files),
          created_at: now,
          updated_at: now,
        })
        .returning(COLUMNS)) as [WorkspaceRow];
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ApiError('duplicate_identifier', `A workspace with id "${id}" already exists.`);
      throw err;
    }
    await this.insertRevision(tenantId, id, 1, first, now);
    return toWorkspace(row);
  }

  async update(
    tenantId: string,
    id: string,
    changes: { name?: string; description?: string },
    now: Date,
  ): Promise<Workspace | undefined> {
    const patch: Record<string, unknown> = { updated_at: now };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.description !== undefined) patch.description = changes.description;
    const [row] = (await this.db('studio_workspaces')
      .where({ tenant_id: tenantId, id })
      .update(patch)
      .returning(COLUMNS)) as WorkspaceRow[];
    return row && toWorkspace(row);
  }

  /** Removes the workspace, its revisions and its collaborative document. */
  async remove(tenantId: string, id: string): Promise<boolean> {
    const deleted = (await this.db('studio_workspaces')
      .where({ tenant_id: tenantId, id })
      .delete()
      .returning('id')) as unknown[];
    if (deleted.length === 0) return false;
    await this.db('studio_revisions').where({ tenant_id: tenantId, workspace_id: id }).delete();
    // The document row first: its lock makes an edit being stored now finish before its rows go.
    await this.db('studio_collab_docs').where({ tenant_id: tenantId, workspace_id: id }).delete();
    await this.db('studio_collab_updates').where({ tenant_id: tenantId, workspace_id: id }).delete();
    return true;
  }

  /** The files of a revision, or undefined when the workspace has no such revision. */
  async files(tenantId: string, id: string, revision: number): Promise<FileMap | undefined> {
    const row = (await this.db('studio_revisions')
      .select('files')
      .where({ tenant_id: tenantId, workspace_id: id, revision })
      .first()) as { files: FileMap | string } | undefined;
    return row && sortedFiles(json(row.files));
  }

  /** Appends the next revision (the caller holds the workspace row locked) and moves the workspace to it. */
  async appendRevision(tenantId: string, current: Workspace, next: NewRevision, now: Date): Promise<Workspace> {
    const revision = current.revision + 1;
    await this.insertRevision(tenantId, current.id, revision, next, now);
    const [row] = (await this.db('studio_workspaces')
      .where({ tenant_id: tenantId, id: current.id })
      .update({ revision, file_count: Object.keys(next.files).length, bytes: totalBytes(next.files), updated_at: now })
      .returning(COLUMNS)) as [WorkspaceRow];
    return toWorkspace(row);
  }

  async revisions(
    tenantId: string,
    id: string,
    filter: { afterRevision?: number; fetch: number },
  ): Promise<Revision[]> {
    const query = this.db('studio_revisions')
      .select('revision', 'file_count', 'bytes', 'source', 'changed', 'deleted', 'created_by', 'created_at')
      .where({ tenant_id: tenantId, workspace_id: id })
      .orderBy('revision', 'asc')
      .limit(filter.fetch);
    if (filter.afterRevision !== undefined) query.andWhere('revision', '>', filter.afterRevision);
    const rows = (await query) as Array<
      Omit<Revision, 'created_at' | 'changed' | 'deleted'> & {
        created_at: Date | string;
        changed: string[] | string;
        deleted: string[] | string;
      }
    >;
    return rows.map((r) => ({
      ...r,
      changed: json(r.changed),
      deleted: json(r.deleted),
      created_at: iso(r.created_at),
    }));
  }

  private async insertRevision(
    tenantId: string,
    id: string,
    revision: number,
    next: NewRevision,
    now: Date,
  ): Promise<void> {
    await this.db('studio_revisions').insert({
      tenant_id: tenantId,
      workspace_id: id,
      revision,
      files: JSON.stringify(next.files),
      file_count: Object.keys(next.files).length,
      bytes: totalBytes(next.files),
      source: next.source,
      changed: JSON.stringify(next.changed),
      deleted: JSON.stringify(next.deleted),
      created_by: next.createdBy,
      created_at: now,
    });
  }
}
