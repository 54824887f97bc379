import type pg from 'pg';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { CURSOR, jsonValue, statementError, TYPE_NAMES } from './statement.js';
import { userError } from './user-error.js';

export interface QueryLimits {
  statementTimeoutMs: number;
  hostGraceMs: number;
  maxRows: number;
}

export interface QueryResult {
  /** `type` is PostgreSQL's name of the column's type (`integer`, `text`, `timestamp with time zone`). */
  columns: Array<{ name: string; type: string; type_oid: number }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  duration_ms: number;
}

/**
 * Runs one query as the tenant's login role: a fresh connection (so nothing a query leaves in
 * its session survives it), a read-only repeatable-read transaction whose snapshot is taken by
 * a first statement before the user's SQL, the cursor fetched up to the row cap, then rollback.
 * A host deadline past the statement timeout cancels the backend from the kernel's own
 * connection (pg_cancel_backend) and then drops the connection.
 */
export async function runQuery(
  admin: Knex,
  connection: pg.ClientConfig,
  sql: string,
  params: readonly unknown[],
  limit: number,
  limits: QueryLimits,
): Promise<QueryResult> {
  // Imported at the first query: the driver is no part of a kernel on the embedded database's boot.
  const { default: driver } = await import('pg');
  const started = process.hrtime.bigint();
  const client = new driver.Client({
    ...connection,
    statement_timeout: limits.statementTimeoutMs,
    query_timeout: undefined,
    application_name: 'sql-console',
  });
  let timedOut = false;
  let deadline: NodeJS.Timeout | undefined;
  let lastResort: NodeJS.Timeout | undefined;
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (err) {
      const why =
        "The SQL console cannot log in as the tenant's database role: the server must accept password logins for the roles the kernel creates (pg_hba.conf).";
      throw new ApiError('not_configured', why, {
        cause: err,
        details: [{ in: 'body', pointer: '/sql', message: why }],
      });
    }
    const pid = (client as unknown as { processID: number }).processID;
    deadline = setTimeout(() => {
      timedOut = true;
      admin.raw('SELECT pg_cancel_backend(?)', [pid]).catch(() => undefined);
      // A backend that ignores the cancel loses its connection.
      lastResort = setTimeout(
        () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy(),
        limits.hostGraceMs,
      );
    }, limits.statementTimeoutMs + limits.hostGraceMs);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(limits.statementTimeoutMs)}`);
    // The snapshot is taken here, before the user's SQL, and it fixes the transaction as read-only.
    await client.query('SELECT 1');
    try {
      await client.query({ text: CURSOR + sql, values: [...params], queryMode: 'extended' } as pg.QueryConfig);
      const fetched = await client.query({
        text: `FETCH FORWARD ${limit + 1} FROM sql_console_cursor`,
        rowMode: 'array',
        queryMode: 'extended',
      } as pg.QueryArrayConfig);
      const truncated = fetched.rows.length > limit;
      const rows = (truncated ? fetched.rows.slice(0, limit) : fetched.rows).map((row) =>
        (row as unknown[]).map(jsonValue),
      );
      const oids = [...new Set(fetched.fields.map((f) => f.dataTypeID))];
      const named = await client.query<{ oid: number; name: string }>({
        text: TYPE_NAMES,
        values: [oids],
      });
      const typeName = new Map(named.rows.map((row) => [row.oid, row.name]));
      return {
        columns: fetched.fields.map((f) => ({
          name: f.name,
          type: typeName.get(f.dataTypeID) ?? `oid ${f.dataTypeID}`,
          type_oid: f.dataTypeID,
        })),
        rows,
        row_count: rows.length,
        truncated,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      };
    } catch (err) {
      if (err instanceof driver.DatabaseError) throw userError(statementError(err), timedOut, limits);
      if (timedOut)
        throw new ApiError(
          'query_timeout',
          `The query ran past the console's limit of ${limits.statementTimeoutMs} ms and its connection was closed.`,
        );
      throw err;
    }
  } finally {
    clearTimeout(deadline);
    clearTimeout(lastResort);
    await client.end().catch(() => undefined);
  }
}
