import { localSchemaName } from '../../../kernel/manifest/compile.js';

type Schema = Record<string, unknown>;

/**
 * How a schema reads as a TypeScript type, for input the kernel validated with ajv
 * (`useDefaults`): a property with a `default` is always present afterwards, so it is required
 * in the type — except inside `oneOf`/`anyOf`/`not`, where ajv fills in no defaults.
 */
interface Mode {
  defaults: boolean;
  indent: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function literal(value: unknown): string {
  return JSON.stringify(value)
    .replace(/'/g, "\\'")
    .replace(/^"(.*)"$/s, "'$1'");
}

function union(parts: readonly string[]): string {
  const distinct = [...new Set(parts)];
  if (distinct.includes('unknown')) return 'unknown';
  return distinct.length === 0 ? 'never' : distinct.join(' | ');
}

function group(type: string): string {
  return /^[A-Za-z0-9_$<>[\]', ]+$/.test(type) && !type.includes(' | ') ? type : `(${type})`;
}

/** A one-line JSDoc for a property's description (none when it has none). */
function doc(schema: Schema, indent: string): string {
  const text = typeof schema.description === 'string' ? schema.description.replace(/\s+/g, ' ').trim() : '';
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';
}

function objectType(schema: Schema, mode: Mode): string {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const extra = schema.additionalProperties;
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (extra === false) return 'Record<string, never>';
    return `Record<string, ${isSchema(extra) ? typeOf(extra, mode) : 'unknown'}>`;
  }
  const inner = `${mode.indent}  `;
  const lines = names.map((name) => {
    const property = properties[name];
    const sub = isSchema(property) ? property : {};
    const present = required.has(name) || (mode.defaults && 'default' in sub);
    const key = IDENTIFIER.test(name) ? name : literal(name);
    return `${doc(sub, inner)}${inner}${key}${present ? '' : '?'}: ${typeOf(sub, { ...mode, indent: inner })};`;
  });
  // An open object keeps its declared fields' types; what else it may hold is read as unknown.
  if (isSchema(extra)) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${mode.indent}}`;
}

function singleType(type: string, schema: Schema, mode: Mode): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = isSchema(schema.items) ? typeOf(schema.items, mode) : 'unknown';
      return `${group(items)}[]`;
    }
    case 'object':
      return objectType(schema, mode);
    default:
      return 'unknown';
  }
}

/** The TypeScript type of a JSON Schema, `$ref: '#/schemas/Name'` read as the named type `Name`. */
export function typeOf(schema: unknown, mode: Mode = { defaults: true, indent: '' }): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (!isSchema(schema)) return 'unknown';
  if (typeof schema.$ref === 'string') return localSchemaName(schema.$ref) ?? 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));

  let base: string;
  if (Array.isArray(schema.type)) base = union(schema.type.map((t) => singleType(String(t), schema, mode)));
  else if (typeof schema.type === 'string') base = singleType(schema.type, schema, mode);
  else if (isSchema(schema.properties)) base = objectType(schema, mode);
  else base = 'unknown';

  const parts = base === 'unknown' ? [] : [base];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[keyword];
    if (!Array.isArray(alternatives)) continue;
    const either = union(alternatives.map((a) => typeOf(a, { ...mode, defaults: false })));
    if (either !== 'unknown') parts.push(group(either));
  }
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) {
      const type = typeOf(part, mode);
      if (type !== 'unknown') parts.push(group(type));
    }
  if (parts.length === 0) return 'unknown';
  return parts.length === 1 ? (parts[0] as string) : parts.join(' & ');
}
