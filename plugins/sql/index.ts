import { randomUUID } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { coreServices, createPlugin, fromRoot, unstorableText } from '../../kernel/plugin/api.js';
import { sqlTables } from './contract.js';
import { createSqlConsole } from './migrations/001_sql.js';
import { ensureGroup, ensureTenantRole, rolePassword, tenantRole } from './roles.js';
import { runQuery } from './run-query.js';
import { releaseSlot, takeSlot } from './slots.js';
import { BUILT_IN_TABLES } from './tables.js';

interface SqlSettings {
  max_concurrent_per_tenant: number;
  statement_timeout_ms: number;
  host_grace_ms: number;
  max_rows: number;
}

/** How long a slot outlives its query's deadline before another instance may take it back (a crashed holder). */
const SLOT_MARGIN_MS = 10_000;

/**
 * The SQL console (POST /sql/query). Offers `sql.tables`, through which plugins name the tables
 * a tenant may read; the runtime's built-in tables are listed in tables.ts. PostgreSQL only: on
 * the embedded database (one in-process connection, no second session to cancel a query from,
 * no server-side timeout that interrupts WebAssembly) it answers 501.
 */
export default createPlugin<
  { db: typeof coreServices.db; config: typeof coreServices.config; secrets: typeof coreServices.secrets; extensions: typeof coreServices.extensions },
  SqlSettings
>({
  id: 'sql',
  manifest: fromRoot('manifests', 'sql.json'),
  migrations: [createSqlConsole],
  deps: { db: coreServices.db, config: coreServices.config, secrets: coreServices.secrets, extensions: coreServices.extensions },
  setup({ db, config, secrets, extensions }, { settings }) {
    const url = config.database.url;
    const schema = config.database.schema ?? 'public';
    const limits = { statementTimeoutMs: settings.statement_timeout_ms, hostGraceMs: settings.host_grace_ms, maxRows: settings.max_rows };
    let group: Promise<string[]> | undefined;
    const tenantRoles = new Map<string, Promise<string>>();

    function once<T>(make: () => Promise<T>, keep: (p: Promise<T> | undefined) => void): Promise<T> {
      const pending = make();
      keep(pending);
      pending.catch(() => keep(undefined));
      return pending;
    }

    async function roleFor(tenantId: string): Promise<{ role: string; password: string }> {
      const key = await secrets.key('sql-console-roles');
      await (group ?? once(() => ensureGroup(db, schema, [...BUILT_IN_TABLES, ...extensions.all(sqlTables)]), (p) => (group = p)));
      const password = rolePassword(key, tenantRole(schema, tenantId));
      const role = await (tenantRoles.get(tenantId) ??
        once(
          () => ensureTenantRole(db, schema, tenantId, password, { statementTimeoutMs: settings.statement_timeout_ms, connectionLimit: settings.max_concurrent_per_tenant + 2 }),
          (p) => (p ? tenantRoles.set(tenantId, p) : tenantRoles.delete(tenantId)),
        ));
      return { role, password };
    }

    return {
      handlers: {
        async runSqlQuery(call) {
          if (!url) {
            // A 5xx message never reaches the client (kernel/errors.ts); the reason travels as the detail.
            const why = 'The SQL console needs PostgreSQL: the embedded database has one in-process connection, so a query could neither run as a separate tenant-bound role nor be cancelled at its deadline.';
            throw new ApiError('not_configured', why, { details: [{ in: 'body', pointer: '/sql', message: why }] });
          }
          const body = call.body as { sql: string; params?: unknown[]; limit?: number };
          if (unstorableText(body.sql)) throw new ApiError('validation_error', `The SQL cannot be sent to the database: it ${unstorableText(body.sql)}.`, { details: [{ in: 'body', pointer: '/sql', message: unstorableText(body.sql) as string }] });
          for (const [i, value] of (body.params ?? []).entries()) {
            if (typeof value === 'string' && unstorableText(value)) throw new ApiError('validation_error', 'A parameter cannot be sent to the database.', { details: [{ in: 'body', pointer: `/params/${i}`, message: unstorableText(value) as string }] });
          }
          const tenantId = call.tenantId as string;
          const slot = await takeSlot(db, tenantId, settings.max_concurrent_per_tenant, randomUUID(), settings.statement_timeout_ms + 2 * settings.host_grace_ms + SLOT_MARGIN_MS);
          if (!slot) {
            throw new ApiError('too_many_queries', `The tenant already runs ${settings.max_concurrent_per_tenant} console queries (its ceiling); retry shortly.`, { headers: { 'Retry-After': '1' } });
          }
          try {
            const { role, password } = await roleFor(tenantId);
            const limit = Math.min(body.limit ?? settings.max_rows, settings.max_rows);
            // The tenant's role replaces the kernel's user in the server's URL (a URL's user would win over separate options).
            const login = new URL(url);
            login.username = role;
            login.password = password;
            return { status: 200, body: await runQuery(db, { connectionString: login.toString() }, body.sql, body.params ?? [], limit, limits) };
          } finally {
            await releaseSlot(db, slot);
          }
        },
      },
      offers: [sqlTables],
    };
  },
});
