import { coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { sqlTables } from './contract.js';
import type { Settings } from './generated/manifest-types.js';
import { sqlHandlers } from './handlers.js';
import { createSqlConsole } from './migrations/001_sql.js';
import { tenantRoles } from './tenant-roles.js';

/**
 * The SQL console (POST /sql/query). Offers `sql.tables`, through which plugins name the tables
 * a tenant may read (each plugin its own: its sql-tables.ts). On PostgreSQL a query
 * runs as the tenant's own login role under row-level security (tenant-roles.ts, roles.ts, run-query.ts); on the
 * embedded database, which has one in-process connection and cannot interrupt a statement, it
 * runs on a copy cut down to the tenant in a worker thread killed at the deadline (embedded/).
 */
export default createPlugin<
  {
    db: typeof coreServices.db;
    config: typeof coreServices.config;
    secrets: typeof coreServices.secrets;
    extensions: typeof coreServices.extensions;
    databaseCopy: typeof coreServices.databaseCopy;
  },
  Settings
>({
  id: 'sql',
  manifest: fromRoot('manifests', 'sql.json'),
  migrations: [createSqlConsole],
  deps: {
    db: coreServices.db,
    config: coreServices.config,
    secrets: coreServices.secrets,
    extensions: coreServices.extensions,
    databaseCopy: coreServices.databaseCopy,
  },
  setup({ db, config, secrets, extensions, databaseCopy }, { settings }) {
    const schema = config.database.schema ?? 'public';
    const tables = () => extensions.all(sqlTables);
    const roleFor = tenantRoles(db, secrets, tables, {
      schema,
      statementTimeoutMs: settings.statement_timeout_ms,
      maxConcurrentPerTenant: settings.max_concurrent_per_tenant,
    });
    return {
      handlers: sqlHandlers({ db, settings, url: config.database.url, schema, databaseCopy, tables, roleFor }),
      offers: [sqlTables],
    };
  },
});
