import { CodecSchemaError } from '../errors.js';
import { childPointer, showPointer } from '../shared/pointer.js';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A field default, kept to say where a default avsc refuses lives. */
export interface FieldDefault {
  pointer: string;
  value: unknown;
}

interface Walk {
  readonly defined: Set<string>;
  readonly defaults: FieldDefault[];
}

/**
 * Checks the structure of an Avro schema (JSON) before avsc compiles it, so that a mistake is
 * reported with the JSON pointer where it is (avsc's own messages do not say where): type
 * names defined before use, names valid and unique, record fields, enum symbols, fixed sizes,
 * unions without nested unions or repeated branch types. avsc then checks the rest (defaults).
 */
export function checkAvroSchema(schema: unknown): FieldDefault[] {
  const walk: Walk = { defined: new Set(), defaults: [] };
  checkNode(schema, '', '', walk);
  return walk.defaults;
}

function fail(pointer: string, problem: string): never {
  throw new CodecSchemaError(`avro schema ${showPointer(pointer)}: ${problem}`, { pointer });
}

function checkNode(node: unknown, pointer: string, namespace: string, walk: Walk): void {
  if (typeof node === 'string') {
    resolveReference(node, pointer, namespace, walk);
    return;
  }
  if (Array.isArray(node)) {
    checkUnion(node, pointer, namespace, walk);
    return;
  }
  if (node === null || typeof node !== 'object') fail(pointer, 'must be a type name, a type object or a union (array)');
  const schema = node as Record<string, unknown>;
  const type = schema.type;
  if (typeof type === 'string' && PRIMITIVES.has(type)) return;
  switch (type) {
    case 'record':
    case 'error':
      checkRecord(schema, pointer, namespace, walk);
      return;
    case 'enum':
      checkEnum(schema, pointer, namespace, walk);
      return;
    case 'fixed':
      checkFixed(schema, pointer, namespace, walk);
      return;
    case 'array':
      if (!('items' in schema)) fail(pointer, 'an array needs "items"');
      checkNode(schema.items, childPointer(pointer, 'items'), namespace, walk);
      return;
    case 'map':
      if (!('values' in schema)) fail(pointer, 'a map needs "values"');
      checkNode(schema.values, childPointer(pointer, 'values'), namespace, walk);
      return;
    default:
      if (typeof type === 'string' || (type !== null && typeof type === 'object')) {
        checkNode(type, childPointer(pointer, 'type'), namespace, walk);
        return;
      }
      fail(pointer, 'needs a "type"');
  }
}

function checkUnion(branches: unknown[], pointer: string, namespace: string, walk: Walk): void {
  if (branches.length === 0) fail(pointer, 'a union needs at least one branch');
  const seen = new Set<string>();
  branches.forEach((branch, index) => {
    const here = childPointer(pointer, index);
    if (Array.isArray(branch)) fail(here, 'a union may not contain a union directly');
    checkNode(branch, here, namespace, walk);
    const key = branchKey(branch, namespace);
    if (seen.has(key)) fail(here, `the union already has a branch of type ${key}`);
    seen.add(key);
  });
}

/** What makes union branches distinct: the name of a named type, the type of any other. */
function branchKey(branch: unknown, namespace: string): string {
  if (typeof branch === 'string') return PRIMITIVES.has(branch) ? branch : qualify(branch, namespace);
  const schema = branch as Record<string, unknown>;
  const type = schema.type;
  if (
    (type === 'record' || type === 'error' || type === 'enum' || type === 'fixed') &&
    typeof schema.name === 'string'
  ) {
    return fullName(schema.name, typeof schema.namespace === 'string' ? schema.namespace : namespace).full;
  }
  if (typeof type === 'string')
    return PRIMITIVES.has(type) || type === 'array' || type === 'map' ? type : qualify(type, namespace);
  return branchKey(type, namespace);
}

/** A reference's full name as Avro (and avsc) resolve it: relative to the enclosing namespace. */
function qualify(reference: string, namespace: string): string {
  if (reference.includes('.')) return reference.replace(/^\./, '');
  return namespace === '' ? reference : `${namespace}.${reference}`;
}

function resolveReference(reference: string, pointer: string, namespace: string, walk: Walk): void {
  if (PRIMITIVES.has(reference)) return;
  if (walk.defined.has(qualify(reference, namespace))) return;
  fail(pointer, `"${reference}" is not a primitive type nor a named type defined before this point`);
}

/** Defines the named type `schema` describes; returns its namespace (for the names inside it). */
function define(schema: Record<string, unknown>, pointer: string, namespace: string, walk: Walk): string {
  const name = schema.name;
  if (typeof name !== 'string') fail(pointer, `a ${String(schema.type)} needs a "name"`);
  if (schema.namespace !== undefined && typeof schema.namespace !== 'string')
    fail(childPointer(pointer, 'namespace'), 'must be a string');
  const { full, space } = fullName(name, typeof schema.namespace === 'string' ? schema.namespace : namespace);
  if (full.split('.').some((part) => !NAME.test(part))) {
    fail(
      childPointer(pointer, 'name'),
      `"${full}" is not a valid Avro name (letters, digits and _, not starting with a digit; dots between namespace parts)`,
    );
  }
  if (PRIMITIVES.has(full)) fail(childPointer(pointer, 'name'), `"${full}" is a primitive type name`);
  if (walk.defined.has(full)) fail(childPointer(pointer, 'name'), `the type "${full}" is defined twice`);
  walk.defined.add(full);
  return space;
}

function fullName(name: string, namespace: string): { full: string; space: string } {
  if (name.includes('.')) return { full: name, space: name.slice(0, name.lastIndexOf('.')) };
  return { full: namespace === '' ? name : `${namespace}.${name}`, space: namespace };
}

function checkRecord(schema: Record<string, unknown>, pointer: string, namespace: string, walk: Walk): void {
  const space = define(schema, pointer, namespace, walk);
  const fields = schema.fields;
  if (!Array.isArray(fields)) fail(pointer, 'a record needs "fields" (an array)');
  const names = new Set<string>();
  fields.forEach((field: unknown, index) => {
    const here = childPointer(childPointer(pointer, 'fields'), index);
    if (field === null || typeof field !== 'object' || Array.isArray(field))
      fail(here, 'a field is an object {name, type}');
    const { name, type } = field as Record<string, unknown>;
    if (typeof name !== 'string' || !NAME.test(name)) fail(childPointer(here, 'name'), 'a field needs a valid "name"');
    if (names.has(name)) fail(childPointer(here, 'name'), `the field "${name}" is defined twice`);
    names.add(name);
    if (type === undefined) fail(here, `the field "${name}" needs a "type"`);
    checkNode(type, childPointer(here, 'type'), space, walk);
    if ('default' in field)
      walk.defaults.push({ pointer: childPointer(here, 'default'), value: (field as Record<string, unknown>).default });
  });
}

function checkEnum(schema: Record<string, unknown>, pointer: string, namespace: string, walk: Walk): void {
  define(schema, pointer, namespace, walk);
  const symbols = schema.symbols;
  if (!Array.isArray(symbols) || symbols.length === 0) fail(pointer, 'an enum needs "symbols" (a non-empty array)');
  const seen = new Set<string>();
  symbols.forEach((symbol: unknown, index) => {
    const here = childPointer(childPointer(pointer, 'symbols'), index);
    if (typeof symbol !== 'string' || !NAME.test(symbol))
      fail(here, 'an enum symbol is a name (letters, digits and _)');
    if (seen.has(symbol)) fail(here, `the symbol "${symbol}" is listed twice`);
    seen.add(symbol);
  });
  if (schema.default !== undefined && !seen.has(schema.default as string))
    fail(childPointer(pointer, 'default'), 'the enum default must be one of its symbols');
}

function checkFixed(schema: Record<string, unknown>, pointer: string, namespace: string, walk: Walk): void {
  define(schema, pointer, namespace, walk);
  const size = schema.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 0x7fffffff)
    fail(childPointer(pointer, 'size'), 'a fixed needs a "size" (a non-negative integer)');
}
