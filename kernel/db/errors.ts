/** PostgreSQL's SQLSTATE for a unique violation; PGlite reports the same code. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
