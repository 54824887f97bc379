import { bodyRequired, takesJsonBody } from '../manifest/body.js';
import { localSchemaName, rewriteRefs } from '../manifest/compile.js';
import { PUBLIC } from '../manifest/types.js';
import type { JsonSchema, Manifest } from '../manifest/types.js';
import type { CompiledRoute } from '../types.js';
import { usedSchemas } from './prune.js';
import { errorResponseComponents, operationResponses } from './responses.js';
import { DRY_RUN_REPORT_SCHEMA, errorCatalogue, errorSchema } from './schemas.js';
import { errorStatuses } from './statuses.js';
import { describeStreaming } from './streaming.js';

export interface OpenApiInput {
  title: string;
  version: string;
  commit: string;
  manifests: readonly Manifest[];
  routes: readonly CompiledRoute[];
  securitySchemes: Record<string, Record<string, unknown>>;
  usesDatabase: ReadonlySet<string>;
}

function componentRef(plugin: string): (ref: string) => string {
  return (ref) => {
    const name = localSchemaName(ref);
    return name === undefined ? ref : `#/components/schemas/${plugin}.${name}`;
  };
}

function parameters(route: CompiledRoute, ref: (r: string) => string): unknown[] {
  const out: unknown[] = [];
  for (const [part, location] of [
    ['params', 'path'],
    ['query', 'query'],
  ] as const) {
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
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: `Same as the body field ${route.idempotency}.`,
      schema: { type: 'string', maxLength: 255 },
    });
  }
  if (route.decl.etag?.if_match) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: `The ETag read before (the ${route.decl.etag.field}, quoted), or *: the change applies only while it is current (412 otherwise).`,
      schema: { type: 'string', maxLength: 1024 },
    });
  }
  return out;
}

function requestBody(route: CompiledRoute, ref: (r: string) => string): Record<string, unknown> | undefined {
  if (takesJsonBody(route) && route.schemas.body) {
    const json = { 'application/json': { schema: rewriteRefs(route.schemas.body, ref) } };
    const raw =
      route.decl.body_type === 'json-or-octet-stream'
        ? { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
        : {};
    return { required: bodyRequired(route), content: { ...json, ...raw } };
  }
  if (route.decl.body_type === 'bytes') {
    return {
      required: false,
      content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    };
  }
  if (route.decl.body_type === 'octet-stream') {
    return {
      required: true,
      content: {
        'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    };
  }
  return undefined;
}

function operation(route: CompiledRoute, errors: readonly number[], securityNames: string[]): Record<string, unknown> {
  const { decl } = route;
  const ref = componentRef(route.plugin);
  const op: Record<string, unknown> = {
    operationId: decl.operation,
    summary: decl.summary,
    ...(decl.description ? { description: decl.description } : {}),
    tags: [route.plugin],
    parameters: parameters(route, ref),
    responses: operationResponses(route, errors, ref),
    security: decl.permission === PUBLIC ? [] : securityNames.map((name) => ({ [name]: [] })),
    'x-permission': decl.permission,
    'x-category': decl.category,
    'x-read-only': decl.read_only,
    'x-audit': route.auditClass,
    'x-idempotency': route.idempotency,
    'x-tenancy': route.tenancy,
  };
  if (decl.paging)
    op['x-paging'] = {
      default_limit: decl.paging.default_limit,
      max_limit: decl.paging.max_limit,
      cursor_in: decl.paging.cursor_in,
    };
  const body = requestBody(route, ref);
  if (body) op.requestBody = body;
  describeStreaming(route, op, ref);
  return op;
}

/** The OpenAPI 3.1 document of every enabled route, derived from the manifests only. */
export function generateOpenApi(input: OpenApiInput): Record<string, unknown> {
  const catalogue = errorCatalogue(input.manifests);
  const schemas: Record<string, unknown> = {
    Error: errorSchema(catalogue.map((e) => e.code)),
    DryRunReport: DRY_RUN_REPORT_SCHEMA,
  };
  for (const manifest of input.manifests) {
    for (const [name, schema] of Object.entries(manifest.schemas ?? {})) {
      schemas[`${manifest.id}.${name}`] = rewriteRefs(schema, componentRef(manifest.id));
    }
  }
  const withDatabase = input.usesDatabase;
  const securityNames = Object.keys(input.securitySchemes);
  const paths: Record<string, Record<string, unknown>> = {};
  const errorsInUse = new Set<number>();
  for (const route of input.routes) {
    const errors = errorStatuses(route, withDatabase.has(route.plugin));
    for (const status of errors) errorsInUse.add(status);
    const item = (paths[route.path] ??= {});
    item[route.decl.method.toLowerCase()] = operation(route, errors, securityNames);
  }
  const responses = errorResponseComponents(errorsInUse, catalogue);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: input.title,
      version: input.version,
      description: `Control-plane API. Generated from the manifests of the enabled plugins (build ${input.commit}).`,
    },
    // Relative: the document is served by the API it describes, so its own origin is the server.
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: input.manifests.map((m) => ({ name: m.id, description: m.summary })),
    paths,
    components: { schemas: usedSchemas(paths, schemas, responses), responses, securitySchemes: input.securitySchemes },
  };
}
