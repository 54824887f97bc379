import { extensionPoint } from '../../kernel/plugin/api.js';

/**
 * What the SQL console offers other plugins: a table the console may read, filtered to the
 * caller's tenant by a row-level security policy on `tenant_column`. A plugin that owns a table
 * tenants should query (workflow runs, BPMN instances…) contributes one line:
 * `contribute(sqlTables, { table: 'workflows_runs' })`; a plain JavaScript plugin gives
 * `{ point: { id: 'sql.tables' }, value: { table: 'workflows_runs' } }`. A table that does not
 * exist (its plugin disabled) is skipped.
 */
export interface SqlTable {
  /** The table's name in the kernel's schema. */
  table: string;
  /** The column holding the tenant id; defaults to `tenant_id`. */
  tenant_column?: string;
}

export const sqlTables = extensionPoint<SqlTable>('sql.tables');
