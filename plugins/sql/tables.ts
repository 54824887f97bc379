import type { SqlTable } from './contract.js';

/**
 * The tables of the built-in runtime plugins the console reads, one line each. Plugins that are
 * not built in (or not yet) add theirs through `sql.tables` (contract.ts) instead.
 */
export const BUILT_IN_TABLES: readonly SqlTable[] = [
  { table: 'components' },
  { table: 'codecs' },
  { table: 'codecs_revisions' },
  { table: 'streams_streams' },
  { table: 'streams_messages' },
  { table: 'streams_deliveries' },
  { table: 'streams_consumer_offsets' },
  { table: 'audit_records' },
];
