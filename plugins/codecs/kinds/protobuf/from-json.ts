import protobuf from 'protobufjs';
import { CodecValueError } from '../errors.js';
import { MAX_VALUE_DEPTH } from '../limits.js';
import { parseBase64 } from '../shared/base64.js';
import { asObject, jsonTypeOf } from '../shared/json-in.js';
import { childPointer, setOwn, showPointer } from '../shared/pointer.js';
import { hasLoneSurrogate } from '../shared/utf8.js';

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const FLOAT_MAX = 3.4028234663852886e38;
const SPECIAL_FLOATS: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity };

/**
 * Checks a JSON value against a message type (the proto3 JSON mapping, with field names as
 * written in the .proto) and returns the object protobufjs `fromObject` expects. protobufjs
 * itself converts leniently — an unknown field is dropped, `"12abc"` becomes 12, an int64
 * beyond range wraps — so every value is checked here first, naming the pointer that does
 * not fit: unknown fields, wrong types, integers out of their range, two members of one
 * oneof, a missing proto2 `required` field, invalid base64, an unknown enum name.
 */
export function protoFromJson(type: protobuf.Type, value: unknown, pointer = '', depth = 0): Record<string, unknown> {
  const object =
    asObject(value) ?? refuse(pointer, `expected an object (message ${name(type)}), got ${jsonTypeOf(value)}`);
  if (depth >= MAX_VALUE_DEPTH) refuse(pointer, `is nested deeper than ${MAX_VALUE_DEPTH} levels`);
  for (const key of Object.keys(object)) {
    if (!Object.hasOwn(type.fields, key)) {
      refuse(
        childPointer(pointer, key),
        `is not a field of ${name(type)} (${type.fieldsArray.map((field) => field.name).join(', ')})`,
      );
    }
  }
  for (const oneof of type.oneofsArray) {
    const set = oneof.fieldsArray.filter((field) => object[field.name] !== undefined && object[field.name] !== null);
    if (set.length > 1)
      refuse(
        pointer,
        `sets ${set.map((field) => field.name).join(' and ')}, but only one member of oneof ${oneof.name} may be set`,
      );
  }
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const item = object[field.name];
    const here = childPointer(pointer, field.name);
    if (item === undefined || item === null) {
      if (field.required) refuse(here, 'is required');
      continue;
    }
    setOwn(out, field.name, fieldFromJson(field, item, here, depth));
  }
  return out;
}

function fieldFromJson(field: protobuf.Field, value: unknown, pointer: string, depth: number): unknown {
  if (field instanceof protobuf.MapField) {
    const object =
      asObject(value) ??
      refuse(pointer, `expected an object (map<${field.keyType}, ${field.type}>), got ${jsonTypeOf(value)}`);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      const here = childPointer(pointer, key);
      checkMapKey(field.keyType, key, here);
      setOwn(out, key, singleFromJson(field, item, here, depth));
    }
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) refuse(pointer, `expected an array (repeated ${field.type}), got ${jsonTypeOf(value)}`);
    return value.map((item, index) => singleFromJson(field, item, childPointer(pointer, index), depth));
  }
  return singleFromJson(field, value, pointer, depth);
}

function singleFromJson(field: protobuf.Field, value: unknown, pointer: string, depth: number): unknown {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return protoFromJson(resolved, value, pointer, depth + 1);
  if (resolved instanceof protobuf.Enum) return enumFromJson(resolved, value, pointer);
  const expected = (what: string): never =>
    refuse(pointer, `expected ${what} (${field.type}), got ${value === null ? 'null' : jsonTypeOf(value)}`);
  switch (field.type) {
    case 'double':
    case 'float': {
      if (typeof value === 'string' && Object.hasOwn(SPECIAL_FLOATS, value)) return SPECIAL_FLOATS[value];
      if (typeof value !== 'number') return expected('a number');
      if (field.type === 'float' && Math.abs(value) > FLOAT_MAX) refuse(pointer, `${value} is out of the float range`);
      return value;
    }
    case 'bool':
      return typeof value === 'boolean' ? value : expected('a boolean');
    case 'string':
      if (typeof value !== 'string') return expected('a string');
      if (hasLoneSurrogate(value)) refuse(pointer, 'contains a lone UTF-16 surrogate');
      return value;
    case 'bytes': {
      if (typeof value !== 'string') return expected('base64 text');
      return parseBase64(value) ?? refuse(pointer, 'is not valid base64');
    }
    default:
      return integerFromJson(field.type, value, pointer, expected);
  }
}

/** An integer field: a JSON number, or a decimal string (the proto3 JSON form of 64-bit integers). */
function integerFromJson(
  type: string,
  value: unknown,
  pointer: string,
  expected: (what: string) => never,
): number | string {
  const range = INTEGER_RANGES[type] ?? refuse(pointer, `has the unknown scalar type ${type}`);
  let big: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return expected('an integer');
    if (!Number.isSafeInteger(value))
      refuse(pointer, `${value} is beyond 2^53 and has lost precision: write it as a decimal string`);
    big = BigInt(value);
  } else if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    big = BigInt(value);
  } else {
    return expected('an integer');
  }
  if (big < range[0] || big > range[1]) refuse(pointer, `${String(value)} is out of the ${type} range`);
  // 64-bit values go on as decimal strings (protobufjs parses them exactly with Long); the others as numbers.
  return type.endsWith('64') ? big.toString() : Number(big);
}

function enumFromJson(type: protobuf.Enum, value: unknown, pointer: string): string | number {
  if (typeof value === 'string') {
    if (!Object.hasOwn(type.values, value))
      refuse(pointer, `"${value}" is not a value of enum ${name(type)} (${Object.keys(type.values).join(', ')})`);
    return value;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) return value;
  return refuse(pointer, `expected a value name of enum ${name(type)} or a 32-bit integer, got ${jsonTypeOf(value)}`);
}

function checkMapKey(keyType: string, key: string, pointer: string): void {
  if (keyType === 'string') return;
  if (keyType === 'bool') {
    if (key !== 'true' && key !== 'false') refuse(pointer, 'a bool map key is "true" or "false"');
    return;
  }
  integerFromJson(keyType, key, pointer, () => refuse(pointer, `a ${keyType} map key is a decimal integer`));
}

function name(type: protobuf.ReflectionObject): string {
  return type.fullName.replace(/^\./, '');
}

function refuse(pointer: string, problem: string): never {
  throw new CodecValueError(`${showPointer(pointer)}: ${problem}`, { pointer });
}
