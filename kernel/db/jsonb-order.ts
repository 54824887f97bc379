/**
 * A JSON value as PostgreSQL hands it back from a `jsonb` column: object keys in jsonb's own
 * order (shorter keys first, keys of one length by their UTF-8 bytes), nested objects too. A
 * handler that answers with what it wrote before the write was sent (a combined write) uses it,
 * so its answer is the one it would have read back, byte for byte.
 */
export function inJsonbOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbOrder) as T;
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort(
    (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  const ordered: Record<string, unknown> = {};
  for (const key of keys) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) ordered[key] = inJsonbOrder(field);
  }
  return ordered as T;
}
