import { code } from './markdown.js';

/** A JSON Schema as read from a manifest, the config schema or the API. */
export type Schema = { readonly [keyword: string]: unknown };

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One property of a schema, nested objects flattened to a dotted path (`[]` marks an array's items). */
export interface PropertyRow {
  /** The levels of its path; an array's items add the level `[]`. */
  readonly path: readonly string[];
  readonly schema: Schema;
  readonly required: boolean;
}

function properties(schema: Schema): Array<[string, Schema]> {
  return isSchema(schema.properties)
    ? Object.entries(schema.properties).filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    : [];
}

function requiredNames(schema: Schema): ReadonlySet<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
}

/**
 * Every property of an object schema, depth first in the schema's order: an object property is a
 * row followed by its own properties' rows, an array of objects likewise with `[]` in the path.
 */
export function propertyRows(schema: Schema, prefix: readonly string[] = []): PropertyRow[] {
  const required = requiredNames(schema);
  return properties(schema).flatMap(([name, inner]) => {
    const path = [...prefix, name];
    const row: PropertyRow = { path, schema: inner, required: required.has(name) };
    const items = isSchema(inner.items) ? inner.items : undefined;
    if (properties(inner).length > 0) return [row, ...propertyRows(inner, path)];
    if (items && properties(items).length > 0) return [row, ...propertyRows(items, [...path, '[]'])];
    return [row];
  });
}

/** `a.b[].c` */
export function dottedPath(path: readonly string[]): string {
  return path.join('.').replace(/\.\[\]/g, '[]');
}

function json(value: unknown): string {
  return code(JSON.stringify(value));
}

function range(schema: Schema, unit = ''): string | undefined {
  const low =
    typeof schema.minimum === 'number'
      ? `≥ ${schema.minimum}`
      : typeof schema.exclusiveMinimum === 'number'
        ? `> ${schema.exclusiveMinimum}`
        : undefined;
  const high =
    typeof schema.maximum === 'number'
      ? `≤ ${schema.maximum}`
      : typeof schema.exclusiveMaximum === 'number'
        ? `< ${schema.exclusiveMaximum}`
        : undefined;
  const bounds = [low, high].filter((b) => b !== undefined);
  return bounds.length ? `${bounds.join(', ')}${unit}` : undefined;
}

function lengths(schema: Schema, min: string, max: string, unit: string): string | undefined {
  const low = typeof schema[min] === 'number' ? Number(schema[min]) : undefined;
  const high = typeof schema[max] === 'number' ? Number(schema[max]) : undefined;
  if (low === undefined && high === undefined) return undefined;
  if (low !== undefined && high !== undefined) return `${low}–${high} ${unit}`;
  return low !== undefined ? `≥ ${low} ${unit}` : `≤ ${high} ${unit}`;
}

/** A variant of a oneOf/anyOf, in a few words: its type, or an object's fields with their constants. */
function variant(schema: Schema): string {
  const fields = properties(schema);
  if (fields.length === 0) return typeText(schema);
  return `{${fields.map(([name, inner]) => ('const' in inner ? `${name}: ${JSON.stringify(inner.const)}` : name)).join(', ')}}`;
}

/** An inner schema's type, in parentheses when it has limits of its own (so they are not read as the outer's). */
function grouped(schema: Schema): string {
  const text = typeText(schema);
  return text.includes(', ') ? `(${text})` : text;
}

/** The type of a schema in words, with its limits: `integer, ≥ 1, ≤ 1000`, `one of "a", "b"`, `array of string`. */
export function typeText(schema: Schema): string {
  if ('const' in schema) return `constant ${json(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(json).join(', ')}`;
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  if (alternatives.length > 0) return `one of ${alternatives.filter(isSchema).map(variant).join(' or ')}`;
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const parts: string[] = [];
  const items = isSchema(schema.items) ? schema.items : undefined;
  parts.push(
    types
      .map((t) => (t === 'array' ? `array${items && Object.keys(items).length > 0 ? ` of ${grouped(items)}` : ''}` : t))
      .join(' or ') || 'any',
  );
  if (types.includes('object') && properties(schema).length === 0 && isSchema(schema.additionalProperties))
    parts[0] = `object of ${grouped(schema.additionalProperties)}`;
  const limits = [
    range(schema),
    lengths(schema, 'minLength', 'maxLength', 'characters'),
    lengths(schema, 'minItems', 'maxItems', 'items'),
    lengths(schema, 'minProperties', 'maxProperties', 'properties'),
    typeof schema.format === 'string' ? `format ${schema.format}` : undefined,
    typeof schema.pattern === 'string' ? `matching ${code(schema.pattern)}` : undefined,
  ].filter((l) => l !== undefined);
  return [parts[0], ...limits].join(', ');
}

/** A default as code, or `—`. */
export function defaultText(schema: Schema): string {
  return 'default' in schema ? json(schema.default) : '—';
}

/** The description, with the marks a client must know: a secret, a value generated when left out. */
export function descriptionText(schema: Schema): string {
  const marks = [
    schema['x-secret'] === true ? '**Secret.**' : undefined,
    schema['x-generated'] === true ? 'Generated when left out (shown once, in the create response).' : undefined,
  ].filter((m) => m !== undefined);
  return [typeof schema.description === 'string' ? schema.description : '', ...marks].filter(Boolean).join(' ');
}
