import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { operationHandlers, unstorableText, type DatabaseCopy } from '../../kernel/plugin/api.js';
import type { Handler } from '../../kernel/types.js';
import type { SqlTable } from './contract.js';
import { runOnCopy } from './embedded/run-on-copy.js';
import type { Operations, Settings } from './generated/manifest-types.js';
import { runQuery } from './run-query.js';
import { releaseSlot, takeSlot } from './slots.js';

/** How long a slot outlives its query's deadline before another instance may take it back (a crashed holder). */
const SLOT_MARGIN_MS = 10_000;

export interface SqlConsoleDeps {
  db: Knex;
  settings: Settings;
  /** The server's URL; none on the embedded database. */
  url: string | undefined;
  schema: string;
  databaseCopy: DatabaseCopy;
  /** The tables a tenant may read: those the plugins contribute through `sql.tables`. */
  tables: () => readonly SqlTable[];
  /** The tenant's login role and its password (tenant-roles.ts). */
  roleFor: (tenantId: string) => Promise<{ role: string; password: string }>;
}

/**
 * POST /sql/query: checks the statement and its parameters can be sent, takes one of the
 * tenant's query slots, and runs the statement as the tenant's own role on PostgreSQL or on a
 * copy of the tenant's rows on the embedded database (one at a time per process).
 */
export function sqlHandlers({
  db,
  settings,
  url,
  schema,
  databaseCopy,
  tables,
  roleFor,
}: SqlConsoleDeps): Record<string, Handler> {
  const limits = {
    statementTimeoutMs: settings.statement_timeout_ms,
    hostGraceMs: settings.host_grace_ms,
    maxRows: settings.max_rows,
  };
  let copyRunning = false;
  return operationHandlers<Operations>({
    async runSqlQuery(call) {
      const body = call.body;
      if (unstorableText(body.sql))
        throw new ApiError(
          'validation_error',
          `The SQL cannot be sent to the database: it ${unstorableText(body.sql)}.`,
          { details: [{ in: 'body', pointer: '/sql', message: unstorableText(body.sql) as string }] },
        );
      for (const [i, value] of (body.params ?? []).entries()) {
        if (typeof value === 'string' && unstorableText(value))
          throw new ApiError('validation_error', 'A parameter cannot be sent to the database.', {
            details: [{ in: 'body', pointer: `/params/${i}`, message: unstorableText(value) as string }],
          });
      }
      const tenantId = call.tenantId;
      const slot = await takeSlot(
        db,
        tenantId,
        settings.max_concurrent_per_tenant,
        randomUUID(),
        settings.statement_timeout_ms + 2 * settings.host_grace_ms + SLOT_MARGIN_MS,
      );
      if (!slot) {
        throw new ApiError(
          'too_many_queries',
          `The tenant already runs ${settings.max_concurrent_per_tenant} console queries (its ceiling); retry shortly.`,
          { headers: { 'Retry-After': '1' } },
        );
      }
      try {
        const limit = Math.min(body.limit ?? settings.max_rows, settings.max_rows);
        if (!url) {
          // Each query holds a copy of the whole database in memory while it runs: one at a time per process.
          if (copyRunning)
            throw new ApiError(
              'too_many_queries',
              'A console query already runs on this server (on the embedded database one runs at a time); retry shortly.',
              { headers: { 'Retry-After': '1' } },
            );
          copyRunning = true;
          const request = {
            schema,
            tenantId,
            tables: tables(),
            sql: body.sql,
            params: body.params ?? [],
            limit,
          };
          try {
            return { status: 200, body: await runOnCopy(databaseCopy, request, limits) };
          } finally {
            copyRunning = false;
          }
        }
        const { role, password } = await roleFor(tenantId);
        // The tenant's role replaces the kernel's user in the server's URL (a URL's user would win over separate options).
        const login = new URL(url);
        login.username = role;
        login.password = password;
        return {
          status: 200,
          body: await runQuery(db, { connectionString: login.toString() }, body.sql, body.params ?? [], limit, limits),
        };
      } finally {
        await releaseSlot(db, slot);
      }
    },
  });
}
