import type { CompiledRoute } from '../types.js';
import type { JsonSchema, RouteDecl } from './types.js';
import { isMutating } from './types.js';
import { TENANT_ID_FIELD } from '../tenancy/scope.js';
import { KERNEL_FIELDS } from './kernel-fields.js';

export { ACCOUNT_WIDE } from '../tenancy/scope.js';

/** Walks a schema and replaces every `$ref` with what `map` returns for it. */
export function rewriteRefs(schema: unknown, map: (ref: string) => string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, map));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' ? map(value) : rewriteRefs(value, map);
  }
  return out;
}

/** The name of a plugin-local schema reference (`#/schemas/Name`), or undefined. */
export function localSchemaName(ref: string): string | undefined {
  return ref.startsWith('#/schemas/') ? ref.slice('#/schemas/'.length) : undefined;
}

function objectSchema(schema: JsonSchema | undefined): JsonSchema {
  return schema ?? { type: 'object', properties: {}, additionalProperties: false };
}

/** Adds properties to an object schema without touching the manifest's own object. */
function withProperties(schema: JsonSchema, extra: Record<string, JsonSchema>): JsonSchema {
  const properties = { ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const [name, def] of Object.entries(extra)) properties[name] ??= def;
  return { ...schema, type: 'object', properties };
}

const TENANT_ID = TENANT_ID_FIELD;

const TICKET: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'One-time ticket (30 s) that opens this WebSocket.',
};

/**
 * Turns `/components/{id}` into the router's `/components/:id`. A last parameter written
 * `{name+}` takes the rest of the path, slashes included (`/files/{path+}` → `/files/*path`):
 * for a route that serves a tree of files.
 */
export function routerPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\+\}$/, '*$1').replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** The OpenAPI form of a manifest path: `{name+}` is written `{name}` there (its schema says it may hold slashes). */
export function templatePath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\+\}$/, '{$1}');
}

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\+?\}/g)].map((m) => m[1] as string);
}

/** Replaces a top-level `$ref` to a plugin schema by that schema, so the kernel can add fields. */
export function inline(
  schema: JsonSchema | undefined,
  named: Readonly<Record<string, JsonSchema>>,
): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; current && typeof current.$ref === 'string' && depth < 8; depth++) {
    const name = localSchemaName(current.$ref);
    const target = name === undefined ? undefined : named[name];
    if (!target) break;
    const { $ref: _ignored, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

export function compileRoute(
  plugin: string,
  original: RouteDecl,
  named: Readonly<Record<string, JsonSchema>> = {},
): CompiledRoute {
  const decl: RouteDecl = { ...original };
  for (const part of ['params', 'query', 'body'] as const) {
    const resolved = inline(original[part], named);
    if (resolved) decl[part] = resolved;
  }
  const mutating = isMutating(decl.method);
  const tenancy = decl.tenancy ?? (decl.permission === 'public' ? 'none' : 'tenant');
  const idempotency = decl.idempotency ?? 'none';
  const dryRunAllowed = mutating && decl.dry_run !== false;
  const bodyType = decl.body_type ?? (mutating && decl.body ? 'json' : 'none');

  let query = objectSchema(decl.query);
  const queryExtra: Record<string, JsonSchema> = {};
  // Every read takes `tenant_id` in the query (spec §4), tenant-free reads too (`/component-types`,
  // `/auth/sessions`, `/health`), so a client can send it on every GET without knowing which
  // routes are scoped; on a tenant-free route it is checked like any other (tenancy step) and
  // changes nothing.
  if (!mutating) queryExtra[KERNEL_FIELDS.tenant] = TENANT_ID;
  if (tenancy === 'tenant' && mutating && bodyType !== 'json') queryExtra[KERNEL_FIELDS.tenant] = TENANT_ID;
  if (decl.paging) {
    queryExtra[KERNEL_FIELDS.limit] = {
      type: 'integer',
      minimum: 1,
      description: `Page size; default ${decl.paging.default_limit}, larger values are clamped to ${decl.paging.max_limit}.`,
    };
    queryExtra[KERNEL_FIELDS.cursor] = {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'Opaque cursor from the previous page.',
    };
  }
  if (dryRunAllowed)
    queryExtra[KERNEL_FIELDS.dryRun] = {
      type: 'boolean',
      description: 'Run every check and the change in a transaction that is rolled back.',
    };
  if (decl.upgrade === 'websocket') queryExtra.ticket = TICKET;
  query = withProperties(query, queryExtra);

  let body = decl.body;
  if (body && (bodyType === 'json' || bodyType === 'json-or-octet-stream')) {
    const bodyExtra: Record<string, JsonSchema> = {};
    if (tenancy === 'tenant') bodyExtra[KERNEL_FIELDS.tenant] = TENANT_ID;
    if (idempotency !== 'none')
      bodyExtra[idempotency] = {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: 'Reusing the key retries the same intent.',
      };
    if (Object.keys(bodyExtra).length > 0 && (body.type === 'object' || body.properties))
      body = withProperties(body, bodyExtra);
  }

  const names = pathParamNames(decl.path);
  const params = decl.params ?? {
    type: 'object',
    required: names,
    additionalProperties: false,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', minLength: 1, maxLength: 200 }])),
  };

  const schemas: CompiledRoute['schemas'] = { query };
  if (names.length > 0 || decl.params) schemas.params = params;
  if (body) schemas.body = body;
  if (decl.response.schema) schemas.response = decl.response.schema;

  return {
    plugin,
    decl,
    path: templatePath(decl.path),
    mutating,
    idempotency,
    auditClass: decl.audit?.class ?? 'none',
    dryRunAllowed,
    tenancy,
    schemas,
  };
}
