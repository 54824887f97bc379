import type { StatementError } from './user-error.js';

/**
 * What both ways of running a console query share (run-query.ts on PostgreSQL, the copy worker
 * on the embedded database): how the user's SQL is wrapped, how values and column types are
 * answered, and how a database error of the statement is read.
 *
 * The user's SQL becomes the body of a cursor: DECLARE accepts one query (SELECT, VALUES, TABLE,
 * WITH … SELECT) and nothing else, and refuses data-modifying WITH clauses. The statement goes
 * through the extended protocol (Parse/Bind/Execute), which refuses `;`-chained statements, so
 * nothing can follow the query.
 */
export const CURSOR = 'DECLARE sql_console_cursor NO SCROLL CURSOR FOR ';

/** The names of column types as PostgreSQL writes them (`integer`, `timestamp with time zone`), by OID. */
export const TYPE_NAMES =
  'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])';

/** Values as JSON shows them: bytes as \x hex (PostgreSQL's own text form), times as ISO strings, int8 as text. */
export function jsonValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** A driver's error of the user's statement, its position counted in the user's SQL (not the cursor's). */
export function statementError(err: {
  code?: string | undefined;
  message: string;
  position?: string | undefined;
}): StatementError {
  const position = err.position ? Number(err.position) - CURSOR.length : undefined;
  return {
    code: err.code ?? 'XX000',
    message: err.message,
    ...(position !== undefined && position >= 1 ? { position } : {}),
  };
}
