import { CodecValueError } from '../errors.js';
import { MAX_VALUE_DEPTH } from '../limits.js';
import { childPointer, setOwn, showPointer } from './pointer.js';
import { hasLoneSurrogate } from './utf8.js';

/**
 * Checks that `value` is JSON (null, booleans, finite numbers, well-formed strings, arrays and
 * plain objects, nested at most MAX_VALUE_DEPTH deep) and returns a copy ready for an encoder
 * (keys like `__proto__` stay plain data).
 * Values arrive from JSON request bodies, but a library caller could hand anything.
 */
export function fromJsonValue(value: unknown, pointer = '', depth = 0): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (hasLoneSurrogate(value))
      throw new CodecValueError(`${showPointer(pointer)}: contains a lone UTF-16 surrogate (not valid Unicode)`, {
        pointer,
      });
    return value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new CodecValueError(`${showPointer(pointer)}: is not a finite number`, { pointer });
    return value;
  }
  if (typeof value !== 'object' || !isJsonContainer(value)) {
    throw new CodecValueError(`${showPointer(pointer)}: is not a JSON value`, { pointer });
  }
  if (depth >= MAX_VALUE_DEPTH)
    throw new CodecValueError(`${showPointer(pointer)}: is nested deeper than ${MAX_VALUE_DEPTH} levels`, { pointer });
  if (Array.isArray(value))
    return value.map((item, index) => fromJsonValue(item, childPointer(pointer, index), depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (hasLoneSurrogate(key))
      throw new CodecValueError(`${showPointer(pointer)}: has a field name with a lone UTF-16 surrogate`, { pointer });
    setOwn(out, key, fromJsonValue(item, childPointer(pointer, key), depth + 1));
  }
  return out;
}

function isJsonContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `value` as a plain JSON object, or undefined when it is not one. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && isJsonContainer(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A value's JSON type, for messages: `null`, `boolean`, `number`, `string`, `array` or `object`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
