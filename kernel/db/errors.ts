/** PostgreSQL's SQLSTATE for a unique violation; PGlite reports the same code. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
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
