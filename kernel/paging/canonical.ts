/**
 * Deterministic JSON: object keys sorted at every depth, so equal values always serialise to
 * the same text (cursor scopes, payload fingerprints, audit hashes depend on it). `undefined`
 * members are dropped as JSON.stringify drops them. Built by appending to one string, with no
 * entry arrays in between: every keyed write fingerprints its body with it, and the audit
 * sealer hashes every record with it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      out += `${i > 0 ? ',' : ''}${item === undefined ? 'null' : canonicalJson(item)}`;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // Keys are unique, so the default sort (by UTF-16 code units, as `<` compares) orders them fully.
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}
