import type { ErrorDetail } from '../errors.js';

/** JSON nested deeper than this is refused (DESIGN.md, hostile input): no step may recurse into it. */
export const MAX_DEPTH = 64;

/** A UTF-16 surrogate without its partner: PostgreSQL (text, jsonb) cannot store it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** What is wrong with a string the database could never store, or undefined. */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  return undefined;
}

/**
 * Finds the values no route may accept, whatever its schema says: strings (and object keys)
 * with NUL or lone surrogates, numbers that are not finite, and nesting deeper than MAX_DEPTH.
 * The walk is iterative with an explicit stack, so a body nested 100,000 levels deep cannot
 * overflow the call stack here; it stops at the first few problems.
 */
export function hostileValues(part: string, root: unknown, limit = 10): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const stack: Array<{ value: unknown; pointer: string; depth: number }> = [{ value: root, pointer: '', depth: 0 }];
  while (stack.length > 0 && details.length < limit) {
    const { value, pointer, depth } = stack.pop() as { value: unknown; pointer: string; depth: number };
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem) details.push({ in: part, pointer: pointer || '/', message: problem });
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value))
        details.push({ in: part, pointer: pointer || '/', message: 'is not a finite number' });
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_DEPTH) {
      details.push({ in: part, pointer: pointer || '/', message: `is nested deeper than ${MAX_DEPTH} levels` });
      continue;
    }
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      const keyProblem = Array.isArray(value) ? undefined : unstorableText(key);
      if (keyProblem) {
        details.push({ in: part, pointer: childPointer, message: `has a field name that ${keyProblem}` });
        continue;
      }
      stack.push({ value: child, pointer: childPointer, depth: depth + 1 });
    }
  }
  return details;
}
