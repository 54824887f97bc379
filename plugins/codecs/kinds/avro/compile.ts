import avsc from 'avsc';
import type { Type } from 'avsc';
import { CodecSchemaError } from '../errors.js';
import { showPointer } from '../shared/pointer.js';
import { checkAvroSchema } from './schema-check.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Avro `long` as bigint: avsc's default (a JavaScript number) cannot hold longs beyond 2^53
 * and refuses to decode them; with bigint no digit is lost (json-out.ts turns it into a number
 * or a decimal string on the way out).
 */
const bigintLong: Type = avsc.types.LongType.__with({
  fromBuffer: (buffer: Buffer) => buffer.readBigInt64LE(),
  toBuffer: (value: bigint) => {
    const buffer = Buffer.alloc(8);
    buffer.writeBigInt64LE(value);
    return buffer;
  },
  fromJSON: (value: number | string) => BigInt(value),
  toJSON: (value: bigint) => Number(value),
  isValid: (value: unknown) => typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX,
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/**
 * A long written as an object (`{"type": "long"}`, or with a logical type such as
 * `timestamp-millis`, read as its underlying type) is ours too: avsc would build its own
 * number-valued long for it, which neither holds 64 bits nor writes the bigint from-json.ts gives.
 */
function longHook(schema: unknown): Type | undefined {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'long'
    ? bigintLong
    : undefined;
}

interface Tap {
  readLong(): number;
  skipLong(): void;
  readString(): string;
}

/**
 * avsc reads a map into `{}` with `value[key] = …`, so a key `__proto__` (a valid map key) is
 * lost or, worse, replaces the object's prototype: the decoded value then no longer encodes to
 * the same bytes. Read into an object without prototype instead, defining every key as an own
 * property; everything downstream (to-json.ts, avsc's writer) reads maps with Object.keys/entries.
 */
const mapType = avsc.types.MapType.prototype as unknown as {
  valuesType: { _read(tap: Tap): unknown };
  _read(tap: Tap): unknown;
};
mapType._read = function readMap(this: typeof mapType, tap: Tap): unknown {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (;;) {
    let count = tap.readLong();
    if (count === 0) return out;
    if (count < 0) {
      count = -count;
      tap.skipLong(); // the block's size in bytes
    }
    while (count--) {
      const key = tap.readString();
      out[key] = this.valuesType._read(tap);
    }
  }
};

/**
 * Compiles an Avro schema (its JSON form) with avsc. Every union is wrapped (`{"branch": value}`
 * at runtime) so the JSON mapping can decide, per union, whether to show the wrapper (see
 * to-json.ts). Logical types are read as their underlying type.
 */
export function compileAvroType(schema: unknown): Type {
  if (schema === undefined || schema === null)
    throw new CodecSchemaError('avro codecs need a schema (the Avro schema as JSON)');
  const defaults = checkAvroSchema(schema);
  try {
    // A fresh registry per schema: avsc records every named type in it.
    return avsc.Type.forSchema(schema as avsc.Schema, {
      registry: { long: bigintLong },
      typeHook: longHook,
      wrapUnions: 'always',
      omitRecordMethods: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const pointer =
      defaults.find((entry) => message.startsWith(`incompatible field default ${JSON.stringify(entry.value)}`))
        ?.pointer ?? '';
    throw new CodecSchemaError(`avro schema ${showPointer(pointer)}: ${message}`, { pointer });
  }
}

/** Whether avsc compiled `type` as a long (ours is an "abstract" long). */
export function isLong(type: Type): boolean {
  return type.typeName === 'long' || type.typeName === 'abstract:long';
}

/** A type as messages name it: `int`, `long`, `shop.Order`, `array<string>`, `union<null, string>`. */
export function describeAvro(type: Type): string {
  if (isLong(type)) return 'long';
  const name = (type as { name?: string }).name;
  if (name) return name;
  switch (type.typeName) {
    case 'array':
      return `array<${describeAvro((type as avsc.types.ArrayType).itemsType)}>`;
    case 'map':
      return `map<${describeAvro((type as avsc.types.MapType).valuesType as Type)}>`;
    case 'union:wrapped':
    case 'union:unwrapped':
      return `union<${(type as avsc.types.WrappedUnionType).types.map(describeAvro).join(', ')}>`;
    default:
      return type.typeName;
  }
}
