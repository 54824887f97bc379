import { CodecValueError } from '../errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from '../limits.js';
import { toBase64 } from './base64.js';
import { childPointer, setOwn, showPointer } from './pointer.js';

/**
 * How a decoded value crosses out as JSON. Every kind follows these rules (protobuf first
 * applies its own canonical mapping, see protobuf.ts):
 * - 64-bit integers (bigint) become a JSON number when they are safe integers
 *   (|n| ≤ 2^53 − 1) and a decimal string otherwise, so no digit is ever lost;
 * - bytes (Buffer, Uint8Array, ArrayBuffer) become a standard, padded base64 string;
 *   other typed arrays become arrays of numbers;
 * - a Map becomes an object whose keys are the map keys as strings; a Set becomes an array;
 * - undefined becomes null; a Date becomes an RFC 3339 string in UTC (`toISOString`);
 * - NaN, Infinity and -Infinity become the strings "NaN", "Infinity", "-Infinity" (as the
 *   protobuf JSON mapping writes them); -0 becomes 0;
 * - a value nested deeper than MAX_VALUE_DEPTH, holding more than MAX_CONTAINERS arrays and
 *   objects, or containing itself, is refused.
 */
export interface JsonOutOptions {
  /** Unwraps a library's wrapper object (a CBOR tag) into the value it carries. */
  unwrap?: (value: object) => { value: unknown } | undefined;
}

interface Walk {
  containers: number;
  readonly ancestors: Set<object>;
  readonly options: JsonOutOptions;
}

export function toJsonValue(value: unknown, options: JsonOutOptions = {}): unknown {
  return convert(value, '', 0, { containers: 0, ancestors: new Set(), options });
}

/** A 64-bit integer under the rule above. */
export function jsonInteger(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

/** A float under the rule above. */
export function jsonNumber(value: number): number | string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return value === 0 ? 0 : value;
}

function convert(value: unknown, pointer: string, depth: number, walk: Walk): unknown {
  switch (typeof value) {
    case 'undefined':
      return null;
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return jsonNumber(value);
    case 'bigint':
      return jsonInteger(value);
    case 'object':
      break;
    default:
      throw new CodecValueError(`${showPointer(pointer)}: a ${typeof value} has no JSON form`, { pointer });
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return toBase64(value);
  if (value instanceof ArrayBuffer) return toBase64(new Uint8Array(value));
  if (value instanceof DataView) return toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime()))
      throw new CodecValueError(`${showPointer(pointer)}: is a date that cannot be represented`, { pointer });
    return value.toISOString();
  }
  if (value instanceof RegExp) return String(value);
  const unwrapped = walk.options.unwrap?.(value);
  if (unwrapped) return convert(unwrapped.value, pointer, depth, walk);

  if (depth >= MAX_VALUE_DEPTH)
    throw new CodecValueError(`${showPointer(pointer)}: is nested deeper than ${MAX_VALUE_DEPTH} levels`, { pointer });
  if (walk.ancestors.has(value))
    throw new CodecValueError(`${showPointer(pointer)}: refers to a value that contains it (a cycle)`, { pointer });
  walk.containers += 1;
  if (walk.containers > MAX_CONTAINERS)
    throw new CodecValueError(`the value holds more than ${MAX_CONTAINERS} arrays and objects`, { pointer });
  walk.ancestors.add(value);
  try {
    if (Array.isArray(value) || value instanceof Set || ArrayBuffer.isView(value)) {
      const items = Array.isArray(value) ? value : Array.from(value as Iterable<unknown>);
      return items.map((item, index) => convert(item, childPointer(pointer, index), depth + 1, walk));
    }
    const out: Record<string, unknown> = {};
    if (value instanceof Map) {
      for (const [key, item] of value) {
        const name = mapKey(key, pointer);
        setOwn(out, name, convert(item, childPointer(pointer, name), depth + 1, walk));
      }
      return out;
    }
    for (const key of Object.keys(value)) {
      setOwn(out, key, convert((value as Record<string, unknown>)[key], childPointer(pointer, key), depth + 1, walk));
    }
    return out;
  } finally {
    walk.ancestors.delete(value);
  }
}

function mapKey(key: unknown, pointer: string): string {
  if (typeof key === 'string') return key;
  if (
    typeof key === 'number' ||
    typeof key === 'bigint' ||
    typeof key === 'boolean' ||
    key === null ||
    key === undefined
  )
    return String(key);
  throw new CodecValueError(`${showPointer(pointer)}: has a map key that is not a string, number or boolean`, {
    pointer,
  });
}
