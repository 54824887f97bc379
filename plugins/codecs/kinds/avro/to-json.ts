import type avsc from 'avsc';
import type { Type } from 'avsc';
import { toBase64 } from '../shared/base64.js';
import { jsonInteger, jsonNumber } from '../shared/json-out.js';
import { setOwn } from '../shared/pointer.js';
import { isLong } from './compile.js';
import { branchName, nullableBranch } from './union.js';

/**
 * An avsc value as JSON: records and maps become objects, longs follow the 64-bit integer
 * rule of json-out.ts, bytes and fixed become base64, floats keep "NaN"/"Infinity" as strings,
 * unions follow union.ts. The data was checked by bounded-read.ts first, so depth is bounded.
 */
export function avroToJson(type: Type, value: unknown): unknown {
  switch (type.typeName) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
    case 'enum':
      return value;
    case 'int':
      return jsonNumber(value as number);
    case 'float':
    case 'double':
      // -0 as "-0": JSON writes the number -0 as 0, whose bytes differ (from-json.ts reads it back).
      return Object.is(value, -0) ? '-0' : jsonNumber(value as number);
    case 'bytes':
    case 'fixed':
      return toBase64(value as Buffer);
    case 'array': {
      const items = (type as avsc.types.ArrayType).itemsType;
      return (value as unknown[]).map((item) => avroToJson(items, item));
    }
    case 'map': {
      const values = (type as avsc.types.MapType).valuesType as Type;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value as Record<string, unknown>))
        setOwn(out, key, avroToJson(values, item));
      return out;
    }
    case 'record':
    case 'error': {
      const out: Record<string, unknown> = {};
      const record = value as Record<string, unknown>;
      for (const field of (type as avsc.types.RecordType).fields)
        setOwn(out, field.name, avroToJson(field.type, record[field.name]));
      return out;
    }
    case 'union:wrapped':
    case 'union:unwrapped': {
      if (value === null) return null;
      const [name, inner] = Object.entries(value as Record<string, unknown>)[0] as [string, unknown];
      const branch = (type as avsc.types.WrappedUnionType).types.find(
        (candidate) => branchName(candidate) === name,
      ) as Type;
      const json = avroToJson(branch, inner);
      return nullableBranch(type) ? json : { [name]: json };
    }
    default:
      if (isLong(type)) return jsonInteger(value as bigint);
      return value;
  }
}
