import type avsc from 'avsc';
import type { Type } from 'avsc';
import { CodecValueError } from '../errors.js';
import { parseBase64 } from '../shared/base64.js';
import { asObject, jsonTypeOf } from '../shared/json-in.js';
import { childPointer, setOwn, showPointer } from '../shared/pointer.js';
import { hasLoneSurrogate } from '../shared/utf8.js';
import { describeAvro, isLong } from './compile.js';
import { branchName, nullableBranch } from './union.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const FLOAT_MAX = 3.4028234663852886e38;
/** Floats JSON has no number for; "-0" keeps the sign bit, so a decoded -0 encodes to its own bytes again. */
const SPECIAL_FLOATS: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Infinity,
  '-Infinity': -Infinity,
  '-0': -0,
};

/**
 * A JSON value as avsc's runtime form for `type` (the inverse of to-json.ts), refusing what
 * does not fit with the JSON pointer where it does not: a long may be a number or a decimal
 * string, bytes and fixed are base64, a missing record field takes its default.
 */
export function avroFromJson(type: Type, value: unknown, pointer = ''): unknown {
  const refuse = (problem: string): never => {
    throw new CodecValueError(`${showPointer(pointer)}: ${problem}`, { pointer });
  };
  const expected = (what: string): never =>
    refuse(`expected ${what} (Avro ${describeAvro(type)}), got ${jsonTypeOf(value)}`);

  switch (type.typeName) {
    case 'null':
      return value === null ? null : expected('null');
    case 'boolean':
      return typeof value === 'boolean' ? value : expected('a boolean');
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return expected('an integer');
      if (value < -0x80000000 || value > 0x7fffffff) refuse(`${value} is out of the 32-bit int range`);
      return value;
    case 'float':
    case 'double': {
      if (typeof value === 'string' && Object.hasOwn(SPECIAL_FLOATS, value)) return SPECIAL_FLOATS[value];
      if (typeof value !== 'number') return expected('a number');
      if (type.typeName === 'float' && Math.abs(value) > FLOAT_MAX) refuse(`${value} is out of the float range`);
      return value;
    }
    case 'string':
      if (typeof value !== 'string') return expected('a string');
      if (hasLoneSurrogate(value)) refuse('contains a lone UTF-16 surrogate');
      return value;
    case 'bytes':
    case 'fixed': {
      if (typeof value !== 'string') return expected('base64 text');
      const bytes = parseBase64(value) ?? refuse('is not valid base64');
      const size = (type as avsc.types.FixedType).size;
      if (type.typeName === 'fixed' && bytes.length !== size)
        refuse(`is ${bytes.length} bytes but ${describeAvro(type)} is fixed at ${size}`);
      return bytes;
    }
    case 'enum': {
      const symbols = (type as avsc.types.EnumType).symbols;
      if (typeof value !== 'string') return expected('an enum symbol');
      if (!symbols.includes(value))
        refuse(`"${value}" is not a symbol of ${describeAvro(type)} (${symbols.join(', ')})`);
      return value;
    }
    case 'array': {
      if (!Array.isArray(value)) return expected('an array');
      const items = (type as avsc.types.ArrayType).itemsType;
      return value.map((item, index) => avroFromJson(items, item, childPointer(pointer, index)));
    }
    case 'map': {
      const object = asObject(value) ?? expected('an object');
      const values = (type as avsc.types.MapType).valuesType as Type;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(object))
        setOwn(out, key, avroFromJson(values, item, childPointer(pointer, key)));
      return out;
    }
    case 'record':
    case 'error':
      return recordFromJson(type as avsc.types.RecordType, asObject(value) ?? expected('an object'), pointer);
    case 'union:wrapped':
    case 'union:unwrapped':
      return unionFromJson(type as avsc.types.WrappedUnionType, value, pointer, refuse);
    default:
      if (isLong(type)) return longFromJson(value, refuse, expected);
      return refuse(`cannot write the Avro type ${type.typeName}`);
  }
}

function recordFromJson(
  type: avsc.types.RecordType,
  object: Record<string, unknown>,
  pointer: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = new Set(type.fields.map((field) => field.name));
  for (const key of Object.keys(object)) {
    if (!names.has(key)) {
      const at = childPointer(pointer, key);
      throw new CodecValueError(`${at}: is not a field of ${describeAvro(type)} (${[...names].join(', ')})`, {
        pointer: at,
      });
    }
  }
  for (const field of type.fields) {
    const at = childPointer(pointer, field.name);
    if (Object.hasOwn(object, field.name)) setOwn(out, field.name, avroFromJson(field.type, object[field.name], at));
    else if (field.defaultValue() !== undefined) setOwn(out, field.name, field.defaultValue() as unknown);
    else throw new CodecValueError(`${at}: is required (the field has no default)`, { pointer: at });
  }
  return out;
}

function unionFromJson(
  type: avsc.types.WrappedUnionType,
  value: unknown,
  pointer: string,
  refuse: (problem: string) => never,
): unknown {
  const hasNull = type.types.some((branch) => branch.typeName === 'null');
  if (value === null) return hasNull ? null : refuse(`null is not a branch of ${describeAvro(type)}`);
  const single = nullableBranch(type);
  if (single) return { [branchName(single)]: avroFromJson(single, value, pointer) };
  const names = type.types.filter((branch) => branch.typeName !== 'null').map(branchName);
  const shape = names.map((name) => `{"${name}": …}`).join(' or ');
  const object = asObject(value);
  const keys = object ? Object.keys(object) : [];
  if (!object || keys.length !== 1 || !names.includes(keys[0] as string))
    refuse(`a ${describeAvro(type)} is written ${shape}${hasNull ? ' or null' : ''}`);
  const name = keys[0] as string;
  const branch = type.types.find((candidate) => branchName(candidate) === name) as Type;
  return { [name]: avroFromJson(branch, (object as Record<string, unknown>)[name], childPointer(pointer, name)) };
}

function longFromJson(value: unknown, refuse: (problem: string) => never, expected: (what: string) => never): bigint {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return expected('an integer');
    if (!Number.isSafeInteger(value))
      refuse(`${value} is beyond 2^53 and has lost precision: write it as a decimal string`);
    return BigInt(value);
  }
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    const big = BigInt(value);
    if (big < INT64_MIN || big > INT64_MAX) refuse(`${value} is out of the 64-bit long range`);
    return big;
  }
  return expected('an integer (a number, or a decimal string beyond 2^53)');
}
