import { canonicalJson } from '../../../../kernel/plugin/api.js';
import { CodecSchemaError } from '../errors.js';
import { childPointer, showPointer } from '../shared/pointer.js';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED = new Set(['record', 'error', 'enum', 'fixed']);

type Json = Record<string, unknown>;

/**
 * What to put where a schema names a type it does not define: the definition, or undefined to
 * leave the name as it is (the schema check then refuses it, naming its pointer).
 */
type Missing = (fullName: string, pointer: string) => Json | undefined;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A reference's full name, relative to the enclosing namespace (as schema-check.ts resolves it). */
function qualify(reference: string, namespace: string): string {
  if (reference.includes('.')) return reference.replace(/^\./, '');
  return namespace === '' ? reference : `${namespace}.${reference}`;
}

function fullName(schema: Json, namespace: string): { full: string; space: string } | undefined {
  if (typeof schema.name !== 'string') return undefined;
  const space = typeof schema.namespace === 'string' ? schema.namespace : namespace;
  if (schema.name.includes('.'))
    return { full: schema.name, space: schema.name.slice(0, schema.name.lastIndexOf('.')) };
  return { full: space === '' ? schema.name : `${space}.${schema.name}`, space };
}

/**
 * Walks an Avro schema in definition order (names are defined before use, as Avro reads them),
 * calling `visit` on each named type it defines and `missing` on each name it uses before any
 * definition; returns the schema with what `missing` gave put in place. Lenient about anything
 * malformed: the schema check after this names that.
 */
function rewrite(
  node: unknown,
  pointer: string,
  namespace: string,
  defined: Set<string>,
  missing: Missing,
  visit?: (full: string, definition: Json) => void,
): unknown {
  if (typeof node === 'string') {
    if (PRIMITIVES.has(node)) return node;
    const full = qualify(node, namespace);
    if (defined.has(full)) return node;
    const definition = missing(full, pointer);
    return definition === undefined ? node : rewrite(definition, pointer, '', defined, missing, visit);
  }
  if (Array.isArray(node))
    return node.map((branch, i) => rewrite(branch, childPointer(pointer, i), namespace, defined, missing, visit));
  if (!isObject(node)) return node;
  const type = node.type;
  if (typeof type === 'string' && PRIMITIVES.has(type)) return node;
  if (typeof type === 'string' && NAMED.has(type)) {
    const name = fullName(node, namespace);
    if (!name) return node;
    defined.add(name.full);
    visit?.(name.full, node);
    if ((type !== 'record' && type !== 'error') || !Array.isArray(node.fields)) return node;
    const fields = node.fields.map((field: unknown, i) =>
      isObject(field) && 'type' in field
        ? {
            ...field,
            type: rewrite(
              field.type,
              childPointer(childPointer(childPointer(pointer, 'fields'), i), 'type'),
              name.space,
              defined,
              missing,
              visit,
            ),
          }
        : field,
    );
    return { ...node, fields };
  }
  if (type === 'array' && 'items' in node)
    return { ...node, items: rewrite(node.items, childPointer(pointer, 'items'), namespace, defined, missing, visit) };
  if (type === 'map' && 'values' in node)
    return {
      ...node,
      values: rewrite(node.values, childPointer(pointer, 'values'), namespace, defined, missing, visit),
    };
  if (typeof type === 'string' || isObject(type) || Array.isArray(type))
    return { ...node, type: rewrite(type, childPointer(pointer, 'type'), namespace, defined, missing, visit) };
  return node;
}

/** The full names a schema uses without defining them (none: it stands alone). */
export function externalNames(schema: unknown): string[] {
  const names = new Set<string>();
  rewrite(schema, '', '', new Set(), (full) => {
    names.add(full);
    return undefined;
  });
  return [...names].sort();
}

/**
 * The named types an Avro schema defines, by full name, each as a definition that stands on its
 * own wherever it is put: its name made full (the namespace attribute then no longer counts).
 */
export function namedDefinitions(schema: unknown): Map<string, Json> {
  const out = new Map<string, Json>();
  rewrite(
    schema,
    '',
    '',
    new Set(),
    () => undefined,
    (full, definition) => {
      const { namespace: _ignored, ...rest } = definition;
      out.set(full, { ...rest, name: full });
    },
  );
  return out;
}

/** A named type another codec of the tenant defines, and which codec. */
export interface SharedType {
  codec: string;
  definition: Json;
}

/**
 * The schema with every named type it uses but does not define copied in from the tenant's
 * other Avro codecs (`shared`, by full name), at its first use, so the stored schema stands
 * alone (compiles, evolves and promotes like any other). A name that no codec defines, or that
 * two define differently, is refused naming the pointer where it is used.
 */
export function inlineSharedTypes(schema: unknown, shared: ReadonlyMap<string, SharedType[]>): unknown {
  return rewrite(schema, '', '', new Set(), (full, pointer) => {
    const found = shared.get(full) ?? [];
    const variants = new Map(found.map((f) => [canonicalJson(f.definition), f]));
    if (variants.size > 1)
      throw new CodecSchemaError(
        `avro schema ${showPointer(pointer)}: "${full}" is defined differently by the codecs ${found.map((f) => `"${f.codec}"`).join(' and ')}; define it here instead`,
        { pointer },
      );
    const [first] = variants.values();
    if (!first)
      throw new CodecSchemaError(
        `avro schema ${showPointer(pointer)}: "${full}" is not a primitive type, a named type defined before this point, nor a named type another avro codec of this tenant defines`,
        { pointer },
      );
    return structuredClone(first.definition);
  });
}
