/** PostgreSQL's SQLSTATE for a unique violation; PGlite reports the same code. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** How long a client is asked to wait (Retry-After, seconds) before retrying a call the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures reaching the server: refused, reset, timed out, unreachable, name lookup. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server, not the statement, failed: admin or crash shutdown, "cannot
 * connect now" (starting up, recovering), and too many connections.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * What `pg` and knex say when the connection, not the query, broke. pg gives these no code
 * (`Connection terminated unexpectedly`, `… due to connection timeout`, `timeout expired` from its
 * connect timer, a client left unusable by an earlier connection error), and knex's pool raises
 * KnexTimeoutError when no connection could be had in time. knex prefixes the message with the
 * failed statement and ` - `, so a pattern matches at the start or after that separator.
 */
const CONNECTION_MESSAGES =
  /(?:^| - )(?:Connection terminated|timeout expired$|Client has encountered a connection error|Client was closed and is not queryable|Knex: Timeout acquiring a connection)/;

function isConnectionFailure(err: object): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // Class 08 is "connection exception" (08000, 08001 cannot establish, 08006 failure, …).
    return SOCKET_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
  }
  // Only errors without a code are read by message: every error the server reports carries its
  // SQLSTATE, so a value a caller put in a failed statement can never pass for a lost connection.
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/**
 * True when `err` means the database could not be reached or dropped the connection (as
 * opposed to refusing a statement). Looks through `cause` and an AggregateError's `errors`
 * (Node reports a refused connect to every address of a host name that way), a few levels deep.
 */
export function isDatabaseUnreachable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  if (isConnectionFailure(err)) return true;
  const { cause, errors } = err as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnreachable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnreachable(inner, depth + 1));
}

/**
 * SQLSTATEs for a value the database refused to store or compare: out of range, malformed for
 * its type, not representable, or too large for an index. They stem from the request's data,
 * so they are the caller's 400 — a backstop behind the input guard and the schemas, which
 * refuse such values earlier and name the field.
 */
const REFUSED_VALUE = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character
  '2202E', // array_subscript_error
  '54000', // program_limit_exceeded (an index row too large)
]);

export function isRefusedValue(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && REFUSED_VALUE.has(code);
}
