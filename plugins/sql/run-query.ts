import type pg from 'pg';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';

export interface QueryLimits {
  statementTimeoutMs: number;
  hostGraceMs: number;
  maxRows: number;
}

export interface QueryResult {
  columns: Array<{ name: string; type_oid: number }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  duration_ms: number;
}

/**
 * The user's SQL becomes the body of a cursor: DECLARE accepts one query (SELECT, VALUES, TABLE,
 * WITH … SELECT) and nothing else, and refuses data-modifying WITH clauses. The statement goes
 * through the extended protocol (Parse/Bind/Execute), which refuses `;`-chained statements, so
 * nothing can follow the query.
 */
const CURSOR = 'DECLARE sql_console_cursor NO SCROLL CURSOR FOR ';

/** Values as JSON shows them: bytes as \x hex (PostgreSQL's own text form), times as ISO strings. */
function jsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}

/** A database error of the user's statement as a client error; position counted in the user's SQL. */
function userError(err: pg.DatabaseError, timedOut: boolean, limits: QueryLimits): ApiError {
  const position = err.position ? Number(err.position) - CURSOR.length : undefined;
  if (err.code === '57014' || timedOut) {
    return new ApiError('query_timeout', `The query ran past the console's limit of ${limits.statementTimeoutMs} ms (statement timeout) and was cancelled.`);
  }
  if (err.code === '42601' && position === 1) {
    return new ApiError('bad_request', 'The console runs one query: SELECT, VALUES, TABLE or WITH … SELECT (no commands, no writes, one statement).', {
      details: [{ in: 'body', pointer: '/sql', message: `${err.message} at position 1` }],
    });
  }
  if (err.code === '42601' && /multiple commands/.test(err.message)) {
    return new ApiError('bad_request', 'The console runs exactly one statement; remove the `;` and what follows.', { details: [{ in: 'body', pointer: '/sql', message: err.message }] });
  }
  if (err.code === '42501' || err.code === '25006' || (err.code === '0A000' && /read-only|DECLARE/i.test(err.message))) {
    return new ApiError('forbidden', `The console cannot do that: ${err.message}.`);
  }
  const where = position !== undefined && position >= 1 ? ` at position ${position}` : '';
  return new ApiError('bad_request', `The query failed: ${err.message}${where}.`, {
    details: [{ in: 'body', pointer: '/sql', message: `${err.message}${where} (SQLSTATE ${err.code})` }],
  });
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
  const client = new driver.Client({ ...connection, statement_timeout: limits.statementTimeoutMs, query_timeout: undefined, application_name: 'sql-console' });
  let timedOut = false;
  let deadline: NodeJS.Timeout | undefined;
  let lastResort: NodeJS.Timeout | undefined;
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (err) {
      const why = "The SQL console cannot log in as the tenant's database role: the server must accept password logins for the roles the kernel creates (pg_hba.conf).";
      throw new ApiError('not_configured', why, { cause: err, details: [{ in: 'body', pointer: '/sql', message: why }] });
    }
    const pid = (client as unknown as { processID: number }).processID;
    deadline = setTimeout(() => {
      timedOut = true;
      admin.raw('SELECT pg_cancel_backend(?)', [pid]).catch(() => undefined);
      // A backend that ignores the cancel loses its connection.
      lastResort = setTimeout(() => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy(), limits.hostGraceMs);
    }, limits.statementTimeoutMs + limits.hostGraceMs);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(limits.statementTimeoutMs)}`);
    // The snapshot is taken here, before the user's SQL, and it fixes the transaction as read-only.
    await client.query('SELECT 1');
    try {
      await client.query({ text: CURSOR + sql, values: [...params], queryMode: 'extended' } as pg.QueryConfig);
      const fetched = await client.query({ text: `FETCH FORWARD ${limit + 1} FROM sql_console_cursor`, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig);
      const truncated = fetched.rows.length > limit;
      const rows = (truncated ? fetched.rows.slice(0, limit) : fetched.rows).map((row) => (row as unknown[]).map(jsonValue));
      return {
        columns: fetched.fields.map((f) => ({ name: f.name, type_oid: f.dataTypeID })),
        rows,
        row_count: rows.length,
        truncated,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      };
    } catch (err) {
      if (err instanceof driver.DatabaseError) throw userError(err, timedOut, limits);
      if (timedOut) throw new ApiError('query_timeout', `The query ran past the console's limit of ${limits.statementTimeoutMs} ms and its connection was closed.`);
      throw err;
    }
  } finally {
    clearTimeout(deadline);
    clearTimeout(lastResort);
    await client.end().catch(() => undefined);
  }
}
