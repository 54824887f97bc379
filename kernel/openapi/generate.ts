import { ERROR_CATALOGUE } from '../errors.js';
import { localSchemaName, rewriteRefs } from '../manifest/compile.js';
import { PUBLIC } from '../manifest/types.js';
import type { JsonSchema, Manifest } from '../manifest/types.js';
import type { CompiledRoute } from '../types.js';
import { describeStreaming } from './streaming.js';

export interface OpenApiInput {
  title: string;
  version: string;
  commit: string;
  manifests: readonly Manifest[];
  routes: readonly CompiledRoute[];
  securitySchemes: Record<string, Record<string, unknown>>;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad request', 401: 'Missing or invalid credential', 403: 'Permission denied',
  404: 'Not found, or in another tenant', 405: 'Method not allowed', 409: 'Conflict', 413: 'Body too large', 415: 'Unsupported media type',
  422: 'Rejected by policy', 429: 'Too many requests', 500: 'Internal error', 501: 'Not configured', 503: 'Unavailable',
};

function componentRef(plugin: string): (ref: string) => string {
  return (ref) => {
    const name = localSchemaName(ref);
    return name === undefined ? ref : `#/components/schemas/${plugin}.${name}`;
  };
}

/** Error statuses a route can answer, from what the kernel does for it plus the manifest's list. */
function errorStatuses(route: CompiledRoute): number[] {
  const statuses = new Set<number>(route.decl.errors ?? []);
  statuses.add(400);
  if (route.decl.permission !== PUBLIC) {
    statuses.add(401);
    statuses.add(403);
  }
  if (route.tenancy === 'tenant' || route.schemas.params) statuses.add(404);
  if (route.schemas.body || route.decl.body_type === 'octet-stream') {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.idempotency !== 'none') {
    statuses.add(409);
    statuses.add(422);
  }
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function parameters(route: CompiledRoute, ref: (r: string) => string): unknown[] {
  const out: unknown[] = [];
  for (const [part, location] of [['params', 'path'], ['query', 'query']] as const) {
    const schema = route.schemas[part];
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: location,
        required: location === 'path' ? true : required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rewriteRefs(rest, ref),
      });
    }
  }
  if (route.idempotency !== 'none') {
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, description: `Same as the body field ${route.idempotency}.`, schema: { type: 'string', maxLength: 255 } });
  }
  return out;
}

function successResponse(route: CompiledRoute, ref: (r: string) => string): Record<string, unknown> {
  const { status, content_type: contentType } = route.decl.response;
  const response: Record<string, unknown> = { description: STATUS_TEXT[status] ?? 'Success' };
  if (route.schemas.response) {
    response.content = { [contentType ?? 'application/json']: { schema: rewriteRefs(route.schemas.response, ref) } };
  }
  const headers: Record<string, unknown> = {};
  if (route.decl.paging?.cursor_in === 'header') headers['X-Next-Cursor'] = { description: 'Cursor of the next page; absent on the last page.', schema: { type: 'string' } };
  if (route.idempotency !== 'none') headers['Idempotent-Replayed'] = { description: 'true when this is a stored response replayed for a reused key.', schema: { type: 'string' } };
  if (Object.keys(headers).length > 0) response.headers = headers;
  return response;
}

function operation(route: CompiledRoute, securityNames: string[]): Record<string, unknown> {
  const { decl } = route;
  const ref = componentRef(route.plugin);
  const responses: Record<string, unknown> = { [String(decl.response.status)]: successResponse(route, ref) };
  for (const status of errorStatuses(route)) responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  const op: Record<string, unknown> = {
    operationId: decl.operation,
    summary: decl.summary,
    ...(decl.description ? { description: decl.description } : {}),
    tags: [route.plugin],
    parameters: parameters(route, ref),
    responses,
    security: decl.permission === PUBLIC ? [] : securityNames.map((name) => ({ [name]: [] })),
    'x-permission': decl.permission,
    'x-category': decl.category,
    'x-read-only': decl.read_only,
    'x-audit': route.auditClass,
    'x-idempotency': route.idempotency,
    'x-tenancy': route.tenancy,
  };
  if (decl.paging) op['x-paging'] = { default_limit: decl.paging.default_limit, max_limit: decl.paging.max_limit, cursor_in: decl.paging.cursor_in };
  if (route.schemas.body && (decl.body_type ?? 'json') === 'json') {
    op.requestBody = { required: true, content: { 'application/json': { schema: rewriteRefs(route.schemas.body, ref) } } };
  } else if (decl.body_type === 'octet-stream') {
    op.requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  }
  describeStreaming(route, op, ref);
  return op;
}

function errorResponses(): Record<string, unknown> {
  const statuses = [...new Set(Object.values(ERROR_CATALOGUE).map((e) => e.status))].sort((a, b) => a - b);
  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    const codes = Object.entries(ERROR_CATALOGUE).filter(([, e]) => e.status === status).map(([code]) => code);
    out[`Error${status}`] = {
      description: `${STATUS_TEXT[status] ?? 'Error'} (${codes.join(', ')})`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'Machine-readable; clients branch on it.' },
        message: { type: 'string', description: 'Human text; clients must not branch on it.' },
        status: { type: 'integer' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['in', 'pointer', 'message'], properties: { in: { type: 'string' }, pointer: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

/** The OpenAPI 3.1 document of every enabled route, derived from the manifests only. */
export function generateOpenApi(input: OpenApiInput): Record<string, unknown> {
  const schemas: Record<string, unknown> = { Error: ERROR_SCHEMA };
  for (const manifest of input.manifests) {
    for (const [name, schema] of Object.entries(manifest.schemas ?? {})) {
      schemas[`${manifest.id}.${name}`] = rewriteRefs(schema, componentRef(manifest.id));
    }
  }
  const securityNames = Object.keys(input.securitySchemes);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of input.routes) {
    const item = (paths[route.path] ??= {});
    item[route.decl.method.toLowerCase()] = operation(route, securityNames);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: input.title,
      version: input.version,
      description: `Control-plane API. Generated from the manifests of the enabled plugins (build ${input.commit}).`,
    },
    tags: input.manifests.map((m) => ({ name: m.id, description: m.summary })),
    paths,
    components: { schemas, responses: errorResponses(), securitySchemes: input.securitySchemes },
  };
}
