const SCHEMA_PREFIX = '#/components/schemas/';

function collectRefs(node: unknown, into: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else collectRefs(value, into);
    }
  }
}

/**
 * The component schemas the paths reach, directly or through other schemas. A manifest's body
 * and params schemas are inlined into the operations (the kernel adds fields to them), so
 * their named originals would otherwise sit in the document unused.
 */
export function usedSchemas(
  paths: unknown,
  schemas: Readonly<Record<string, unknown>>,
  responses: unknown,
): Record<string, unknown> {
  const pending: string[] = [];
  collectRefs(paths, pending);
  collectRefs(responses, pending);
  const used = new Set<string>();
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (!ref.startsWith(SCHEMA_PREFIX)) continue;
    const name = ref.slice(SCHEMA_PREFIX.length);
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    collectRefs(schemas[name], pending);
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
