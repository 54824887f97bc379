import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's workspaces and their revisions (files included), under readable names. */
export const studioSqlTables: readonly SqlTable[] = [
  {
    table: 'studio_workspaces',
    view: {
      name: 'workspaces',
      select: 't.id, t.name, t.description, t.revision, t.file_count, t.bytes, t.created_at, t.updated_at',
    },
  },
  {
    table: 'studio_revisions',
    view: {
      name: 'workspace_revisions',
      select:
        't.workspace_id, t.revision, t.files, t.file_count, t.bytes, t.source, t.changed, t.deleted, t.created_by, t.created_at',
    },
  },
];
