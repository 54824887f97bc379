import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CodecSchemaError, CodecValueError } from './errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from './limits.js';
import { compiledCodec } from './shared/compiled.js';
import { fromJsonValue } from './shared/json-in.js';
import { childPointer, showPointer } from './shared/pointer.js';
import { hasNestedQuantifier } from './shared/regex-risk.js';
import { decodeUtf8 } from './shared/utf8.js';
import type { CodecKind, CompiledCodec } from './types.js';

// ajv-formats is CommonJS; its callable is the default export under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * `json`: UTF-8 JSON text. The optional schema is a JSON Schema (2020-12) every value must
 * match, on decode and on encode.
 */
export const jsonKind: CodecKind = {
  kind: 'json',
  schemaSchema: { type: ['object', 'boolean'] },
  compile(schema: unknown): CompiledCodec {
    const validate = schema === undefined || schema === null ? undefined : compileJsonSchema(schema);
    const check = (value: unknown): void => {
      if (validate && !validate(value)) throw schemaMismatch(validate.errors ?? []);
    };
    return compiledCodec('json', {
      contentType: 'application/json',
      decode(bytes) {
        const text = decodeUtf8(bytes);
        checkStructure(text);
        const value = JSON.parse(text) as unknown;
        checkFinite(value);
        check(value);
        return value;
      },
      encode(value) {
        const json = fromJsonValue(value);
        check(json);
        return Buffer.from(JSON.stringify(json), 'utf8');
      },
    });
  },
};

function compileJsonSchema(schema: unknown): ValidateFunction {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || Array.isArray(schema))) {
    throw new CodecSchemaError('json schema /: must be a JSON Schema (an object or a boolean)');
  }
  // A fresh Ajv per codec: tenants' schemas must not share `$id`s or a cache that only grows.
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, addUsedSchema: false }));
  if (!ajv.validateSchema(schema as object | boolean)) {
    const error = (ajv.errors ?? [])[0];
    const pointer = error?.instancePath ?? '';
    throw new CodecSchemaError(
      `json schema ${showPointer(pointer)}: ${error?.message ?? 'is not a valid JSON Schema'}`,
      { pointer },
    );
  }
  const risky = riskyPattern(schema, '');
  if (risky !== undefined) {
    throw new CodecSchemaError(
      `json schema ${showPointer(risky)}: the pattern nests a repeated group inside a repeat, which can take exponential time to match`,
      { pointer: risky },
    );
  }
  try {
    return ajv.compile(schema as object | boolean);
  } catch (error) {
    throw new CodecSchemaError(`json schema /: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Pointer of the first `pattern` (or `patternProperties` key) with nested quantifiers. */
function riskyPattern(node: unknown, pointer: string): string | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const found = riskyPattern(node[i], childPointer(pointer, i));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(node)) {
    const here = childPointer(pointer, key);
    if (key === 'pattern' && typeof child === 'string' && hasNestedQuantifier(child)) return here;
    if (key === 'patternProperties' && child !== null && typeof child === 'object') {
      for (const source of Object.keys(child)) if (hasNestedQuantifier(source)) return childPointer(here, source);
    }
    const found = riskyPattern(child, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

function schemaMismatch(errors: readonly ErrorObject[]): CodecValueError {
  const located = errors.map((error) => {
    let pointer = error.instancePath;
    if (error.keyword === 'required')
      pointer = childPointer(pointer, String((error.params as { missingProperty: string }).missingProperty));
    if (error.keyword === 'additionalProperties')
      pointer = childPointer(pointer, String((error.params as { additionalProperty: string }).additionalProperty));
    const message =
      error.keyword === 'required'
        ? 'is required'
        : error.keyword === 'additionalProperties'
          ? 'is not an allowed field'
          : (error.message ?? 'is not valid');
    return { pointer, message };
  });
  const first = located[0] ?? { pointer: '', message: 'does not match the schema' };
  const text = located
    .slice(0, 5)
    .map((l) => `${showPointer(l.pointer)}: ${l.message}`)
    .join('; ');
  return new CodecValueError(`the value does not match the codec's JSON Schema: ${text}`, { pointer: first.pointer });
}

/**
 * Counts brackets outside strings before parsing: JSON.parse would otherwise build millions
 * of objects (3 bytes each: `{},`) or nest without end before any check could run.
 */
function checkStructure(text: string): void {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i += 1;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      containers += 1;
      if (depth > MAX_VALUE_DEPTH)
        throw new CodecValueError(`the JSON is nested deeper than ${MAX_VALUE_DEPTH} levels (character ${i})`);
      if (containers > MAX_CONTAINERS)
        throw new CodecValueError(`the JSON holds more than ${MAX_CONTAINERS} arrays and objects`);
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
}

/** JSON.parse turns `1e400` into Infinity, which has no JSON form: refuse it, naming where. */
function checkFinite(root: unknown): void {
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: root, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop() as { value: unknown; pointer: string };
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new CodecValueError(`${showPointer(pointer)}: the number is too large for a double`, { pointer });
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, pointer: childPointer(pointer, key) });
  }
}
