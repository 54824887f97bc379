import type { JsonSchema, LoadedManifest, RouteDecl } from './types.js';
import { AUTHENTICATED, PUBLIC, isMutating, isStreaming } from './types.js';
import { inline, pathParamNames } from './compile.js';

export interface PluginSurface {
  loaded: LoadedManifest;
  handlers: readonly string[];
}

/** Raised when the enabled plugins do not form a coherent surface; one line per problem. */
export class ConformanceError extends Error {
  constructor(readonly problems: string[]) {
    super(`the kernel refuses to start:\n  ${problems.join('\n  ')}`);
    this.name = 'ConformanceError';
  }
}

/** A list route answers `{ items: [...] }` or a bare array; it must declare a paging policy. */
export function isListRoute(route: RouteDecl, named: Readonly<Record<string, JsonSchema>> = {}): boolean {
  if (route.method !== 'GET') return false;
  const schema = inline(route.response.schema, named);
  if (!schema) return false;
  if (schema.type === 'array') return true;
  const items = (schema.properties as Record<string, { type?: unknown }> | undefined)?.items;
  return items?.type === 'array';
}

function routeProblems(
  plugin: string,
  route: RouteDecl,
  permissions: ReadonlySet<string>,
  named: Readonly<Record<string, JsonSchema>>,
): string[] {
  const schemas = new Set(Object.keys(named));
  const at = `plugin ${plugin}, operation ${route.operation}`;
  const problems: string[] = [];
  if (isMutating(route.method) && !route.audit)
    problems.push(`${at}: a mutating route (${route.method}) has no audit class`);
  if (route.audit?.class === 'none' && isMutating(route.method) && !route.audit.reason)
    problems.push(`${at}: audit class none needs a reason`);
  if (isListRoute(route, named) && !route.paging) problems.push(`${at}: a list route has no paging policy`);
  if (route.paging) {
    if (route.paging.default_limit > route.paging.max_limit)
      problems.push(`${at}: paging default_limit exceeds max_limit`);
    if (!isListRoute(route, named))
      problems.push(`${at}: paging is declared but the response is not a list ({ items: [...] })`);
  }
  if (route.permission !== PUBLIC && route.permission !== AUTHENTICATED && !permissions.has(route.permission)) {
    problems.push(`${at}: permission ${route.permission} is not declared by any enabled plugin`);
  }
  if (route.read_only && isMutating(route.method) && route.method !== 'POST')
    problems.push(`${at}: ${route.method} cannot be read_only`);
  if (route.idempotency && route.idempotency !== 'none' && !isMutating(route.method))
    problems.push(`${at}: idempotency is declared on a GET route`);
  const names = pathParamNames(route.path);
  const params = inline(route.params, named);
  const declared = Object.keys((params?.properties as Record<string, unknown> | undefined) ?? {});
  if (params)
    for (const name of names)
      if (!declared.includes(name)) problems.push(`${at}: path parameter {${name}} has no schema in params`);
  problems.push(...streamingProblems(at, route, named), ...entityTagProblems(at, route, named));
  const refs = JSON.stringify([route.params, route.query, route.body, route.response.schema]).matchAll(
    /"\$ref":"#\/schemas\/([^"]+)"/g,
  );
  for (const [, name] of refs)
    if (!schemas.has(name as string)) problems.push(`${at}: $ref #/schemas/${name} names no schema of the plugin`);
  return problems;
}

/** `etag`: a version field the response carries; If-Match only on a change. */
function entityTagProblems(at: string, route: RouteDecl, named: Readonly<Record<string, JsonSchema>>): string[] {
  const etag = route.etag;
  if (!etag) return [];
  const problems: string[] = [];
  if (isStreaming(route)) problems.push(`${at}: a WebSocket or event-stream route cannot declare etag`);
  if (etag.if_match && !isMutating(route.method)) problems.push(`${at}: etag.if_match is declared on a GET route`);
  const schema = inline(route.response.schema, named);
  const fields = (schema?.properties as Record<string, unknown> | undefined) ?? {};
  if (schema && !(etag.field in fields))
    problems.push(`${at}: etag.field ${etag.field} is not a property of the response schema`);
  if (!schema && !etag.if_match)
    problems.push(`${at}: etag is declared but the route answers no body to take the version from`);
  return problems;
}

/** WebSocket and event-stream routes: GETs that run no paging, with the status their protocol answers. */
function streamingProblems(at: string, route: RouteDecl, named: Readonly<Record<string, JsonSchema>>): string[] {
  const problems: string[] = [];
  const kind =
    route.upgrade === 'websocket' ? 'a WebSocket route' : route.stream === 'sse' ? 'an event-stream route' : undefined;
  if (route.ticket && route.upgrade !== 'websocket')
    problems.push(`${at}: ticket is declared but the route does not upgrade to a WebSocket`);
  if (route.response.status === 101 && route.upgrade !== 'websocket')
    problems.push(`${at}: status 101 is for WebSocket routes only`);
  if (route.transaction === false && route.idempotency !== undefined && route.idempotency !== 'none')
    problems.push(
      `${at}: transaction false cannot go with an idempotency key (its stored response commits with the effect)`,
    );
  if (!kind) return problems;
  if (route.upgrade && route.stream)
    problems.push(`${at}: a route either upgrades to a WebSocket or streams events, not both`);
  // An event stream may also answer a POST that starts work and reports it as it goes (a
  // conversation's turn): such a route holds no transaction, since its events outlive the call.
  const streamedPost = route.stream === 'sse' && route.method === 'POST' && route.transaction === false;
  if (route.method !== 'GET' && !streamedPost)
    problems.push(`${at}: ${kind} must be a GET (or a POST declaring transaction: false)`);
  if (route.paging) problems.push(`${at}: ${kind} cannot declare paging`);
  if (!streamedPost && (route.body || (route.body_type && route.body_type !== 'none')))
    problems.push(`${at}: ${kind} takes no request body`);
  if (route.upgrade === 'websocket') {
    if (route.response.status !== 101) problems.push(`${at}: a WebSocket route answers status 101`);
    if (route.permission === PUBLIC)
      problems.push(`${at}: a WebSocket route opens with a ticket, so it cannot be public`);
    if (!route.ticket) problems.push(`${at}: a WebSocket route declares its ticket channel (ticket.channel)`);
    const param = route.ticket?.resource_param;
    if (param !== undefined) {
      const query = Object.keys((inline(route.query, named)?.properties as Record<string, unknown> | undefined) ?? {});
      if (!pathParamNames(route.path).includes(param) && !query.includes(param))
        problems.push(`${at}: ticket.resource_param ${param} is neither a path parameter nor a query field`);
    }
  } else if (route.response.status !== 200) {
    problems.push(`${at}: an event-stream route answers status 200`);
  }
  return problems;
}

/**
 * Boot conformance (fastify-style "no surprises after boot"): every route has a handler and
 * every handler a route; mutating routes declare an audit class; list routes declare paging;
 * permissions are declared; operations and method+path pairs are unique.
 */
export function checkConformance(surfaces: readonly PluginSurface[]): void {
  const problems: string[] = [];
  const permissions = new Set<string>();
  const operations = new Map<string, string>();
  const endpoints = new Map<string, string>();
  for (const { loaded } of surfaces) for (const p of loaded.manifest.permissions ?? []) permissions.add(p.name);

  for (const { loaded, handlers } of surfaces) {
    const { manifest } = loaded;
    const routeOps = new Set(manifest.routes.map((r) => r.operation));
    for (const route of manifest.routes) {
      problems.push(...routeProblems(manifest.id, route, permissions, manifest.schemas ?? {}));
      if (!handlers.includes(route.operation))
        problems.push(`plugin ${manifest.id}, operation ${route.operation}: the route has no handler`);
      const owner = operations.get(route.operation);
      if (owner)
        problems.push(
          `plugin ${manifest.id}, operation ${route.operation}: the operation name is taken by plugin ${owner}`,
        );
      operations.set(route.operation, manifest.id);
      const endpoint = `${route.method} ${route.path.replace(/\{[^}]+\}/g, '{}')}`;
      const taken = endpoints.get(endpoint);
      if (taken)
        problems.push(
          `plugin ${manifest.id}, operation ${route.operation}: ${route.method} ${route.path} is already served by ${taken}`,
        );
      endpoints.set(endpoint, `${manifest.id}/${route.operation}`);
    }
    for (const handler of handlers) {
      if (!routeOps.has(handler))
        problems.push(`plugin ${manifest.id}, operation ${handler}: the handler has no route in ${loaded.file}`);
    }
  }
  for (const { loaded } of surfaces) {
    for (const route of loaded.manifest.routes) {
      const minter = route.ticket?.minted_by;
      if (minter !== undefined && !operations.has(minter))
        problems.push(
          `plugin ${loaded.manifest.id}, operation ${route.operation}: ticket.minted_by names no operation of an enabled plugin (${minter})`,
        );
    }
  }
  if (problems.length > 0) throw new ConformanceError(problems);
}
