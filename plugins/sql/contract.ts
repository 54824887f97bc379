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
  /**
   * A readable view over the table, the name a tenant is expected to query (`runs` rather than
   * `workflows_runs`): `select` is the column list over the table (aliased `t`), where the
   * console's functions `sql_console_json(bytes)` and `sql_console_text(bytes)` turn stored
   * bytes into a value. The view runs with the querying role's rights (security_invoker), so
   * the table's tenant policy applies to it as to the table; it leaves out the tenant column.
   */
  view?: { name: string; select: string };
}

export const sqlTables = extensionPoint<SqlTable>('sql.tables');
