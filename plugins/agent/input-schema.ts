import { localSchemaName, rewriteRefs } from '../../kernel/plugin/api.js';
import type { JsonSchema } from '../../kernel/plugin/api.js';
import type { CompiledRoute } from '../../kernel/types.js';

/**
 * Where each top-level tool argument goes when the call is dispatched: a tool takes ONE flat
 * object, the route takes path params, query and body.
 */
export interface ArgumentLayout {
  readonly params: ReadonlySet<string>;
  readonly query: ReadonlySet<string>;
  /**
   * none: the route takes no body. fields: the body's properties are top-level arguments (and
   * any argument not claimed by params or query goes to the body). whole: the body is the one
   * argument named `argument` (the body is not an object, or its field names collide with
   * params or query). binary: that argument is the base64 of an octet-stream body.
   */
  readonly body: { mode: 'none' } | { mode: 'fields' } | { mode: 'whole' | 'binary'; argument: string };
}

export interface ToolInput {
  /** One self-contained JSON Schema object: plugin-local `$ref`s point into its own `$defs`. */
  readonly schema: JsonSchema;
  readonly layout: ArgumentLayout;
}

type Properties = Record<string, JsonSchema>;

function propertiesOf(schema: JsonSchema | undefined): Properties {
  return (schema?.properties as Properties | undefined) ?? {};
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  return Array.isArray(schema?.required) ? (schema.required as string[]) : [];
}

function closed(schema: JsonSchema | undefined): boolean {
  return schema === undefined || schema.additionalProperties === false;
}

/** A body whose properties can be spread into the arguments without losing its meaning. */
function isPlainObject(schema: JsonSchema): boolean {
  const combinator = ['oneOf', 'anyOf', 'allOf', 'not', 'if', '$ref', 'patternProperties'].some((k) => k in schema);
  return !combinator && (schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined));
}

function freeName(taken: ReadonlySet<string>): string {
  return ['body', 'request_body', '_body'].find((n) => !taken.has(n)) ?? '__body';
}

/** Every plugin-local schema name a schema refers to, directly or through other named schemas. */
function reachableNames(schema: unknown, named: Readonly<Record<string, JsonSchema>>): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = localSchemaName(value);
        if (name !== undefined && !found.has(name) && named[name]) {
          found.add(name);
          visit(named[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(schema);
  return [...found].sort();
}

const toDefs = (ref: string): string => {
  const name = localSchemaName(ref);
  return name === undefined ? ref : `#/$defs/${name}`;
};

/**
 * Builds a tool's input schema from the route's effective schemas (the manifest's plus the
 * kernel's tenant_id, paging, dry_run and idempotency fields). The pipeline still validates
 * every part against the route's own schemas; this schema tells the agent what to send.
 */
export function toolInput(route: CompiledRoute, named: Readonly<Record<string, JsonSchema>>): ToolInput {
  const { params, query, body } = route.schemas;
  const paramProps = propertiesOf(params);
  const queryProps = propertiesOf(query);
  const properties: Properties = { ...paramProps };
  for (const [name, property] of Object.entries(queryProps)) properties[name] ??= property;
  const required = new Set([...Object.keys(paramProps), ...requiredOf(params), ...requiredOf(query)]);
  const taken = new Set(Object.keys(properties));
  let open = !closed(params) || !closed(query);

  let layout: ArgumentLayout['body'] = { mode: 'none' };
  const bodyType = route.decl.body_type ?? (body ? 'json' : 'none');
  if (bodyType === 'octet-stream') {
    const argument = freeName(taken);
    properties[argument] = {
      type: 'string',
      contentEncoding: 'base64',
      contentMediaType: 'application/octet-stream',
      description: 'The request body, base64-encoded.',
    };
    required.add(argument);
    layout = { mode: 'binary', argument };
  } else if (body && (bodyType === 'json' || bodyType === 'json-or-octet-stream')) {
    const bodyProps = propertiesOf(body);
    const collides = Object.keys(bodyProps).some((name) => taken.has(name));
    if (isPlainObject(body) && !collides) {
      Object.assign(properties, bodyProps);
      for (const name of requiredOf(body)) required.add(name);
      open ||= !closed(body);
      layout = { mode: 'fields' };
    } else {
      const argument = freeName(taken);
      properties[argument] = {
        ...body,
        description: typeof body.description === 'string' ? body.description : 'The request body.',
      };
      required.add(argument);
      layout = { mode: 'whole', argument };
    }
  }

  const schema: JsonSchema = { type: 'object', properties: rewriteRefs(properties, toDefs) as Properties };
  if (required.size > 0) schema.required = [...required];
  if (!open) schema.additionalProperties = false;
  const names = reachableNames(properties, named);
  if (names.length > 0) schema.$defs = Object.fromEntries(names.map((n) => [n, rewriteRefs(named[n], toDefs)]));

  return {
    schema,
    layout: { params: new Set(Object.keys(paramProps)), query: new Set(Object.keys(queryProps)), body: layout },
  };
}
