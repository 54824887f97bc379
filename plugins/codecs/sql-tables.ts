import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's codecs and their revisions, under readable names. */
export const codecSqlTables: readonly SqlTable[] = [
  { table: 'codecs' },
  {
    table: 'codecs_revisions',
    view: {
      name: 'codec_revisions',
      select: 't.codec_id, t.revision, t.name, t.kind, t.schema, t.changed_by, t.created_at',
    },
  },
];
