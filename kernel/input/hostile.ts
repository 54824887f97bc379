import type { ErrorDetail } from '../errors.js';

/** JSON nested deeper than this is refused (DESIGN.md, hostile input): no step may recurse into it. */
export const MAX_DEPTH = 64;

/** A UTF-16 surrogate without its partner: PostgreSQL (text, jsonb) cannot store it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Any surrogate at all: a string without one (nearly every string) needs no look around its characters. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** What is wrong with a string the database could never store, or undefined. */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (SURROGATE.test(value) && LONE_SURROGATE.test(value))
    return 'contains a lone UTF-16 surrogate (not valid Unicode)';
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
  // A value's pointer is its parent's and its key, made only when a problem is reported (or the
  // value has members of its own): most bodies have none, and most members are not containers.
  const stack: Frame[] = [{ value: root, parent: '', key: undefined, depth: 0 }];
  while (stack.length > 0 && details.length < limit) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem) details.push({ in: part, pointer: pointerOf(frame) || '/', message: problem });
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value))
        details.push({ in: part, pointer: pointerOf(frame) || '/', message: 'is not a finite number' });
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    const pointer = pointerOf(frame);
    if (depth >= MAX_DEPTH) {
      details.push({ in: part, pointer: pointer || '/', message: `is nested deeper than ${MAX_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i] as unknown, parent: pointer, key: String(i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const keyProblem = unstorableText(key);
      if (keyProblem) {
        details.push({
          in: part,
          pointer: `${pointer}/${escapePointerToken(key)}`,
          message: `has a field name that ${keyProblem}`,
        });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], parent: pointer, key, depth: depth + 1 });
    }
  }
  return details;
}

interface Frame {
  value: unknown;
  /** The pointer of the object or array the value is a member of ('' for the root's members and the root). */
  parent: string;
  /** The value's key in its parent; undefined for the root. */
  key: string | undefined;
  depth: number;
}

function pointerOf(frame: Frame): string {
  return frame.key === undefined ? frame.parent : `${frame.parent}/${escapePointerToken(frame.key)}`;
}
