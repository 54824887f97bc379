import { Router } from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { ApiError } from '../errors.js';
import { routerPath } from '../manifest/compile.js';
import type { KernelConfig } from '../config/types.js';
import type { Call, CompiledRoute, Reply } from '../types.js';
import { readBody } from './body.js';
import { newCall } from '../pipeline/call.js';
import type { EventStreams } from './sse.js';

export interface MountedRoute {
  route: CompiledRoute;
  run: (call: Call) => Promise<Reply>;
  /** The kernel's database handle, which every new call starts with. */
  db: Knex;
}

function queryObject(ctx: Context): Record<string, unknown> {
  // A copy: validation coerces query values in place (`?limit=5` becomes a number).
  return ctx.querystring === '' ? {} : { ...(ctx.query as Record<string, unknown>) };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A plain object or array, which Koa would write as JSON (a Buffer, stream, Blob and the like it writes as bytes). */
function isPlainJson(body: unknown): body is object {
  if (typeof body !== 'object' || body === null) return false;
  if (Array.isArray(body)) return true;
  const proto = Object.getPrototypeOf(body) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Statuses whose response has no body (Koa's `statuses.empty`). */
const BODYLESS = new Set([204, 205, 304]);

/**
 * The tenant a call acted in (DESIGN.md "effective tenant"): the one the tenancy step resolved,
 * else the caller's own (a tenant-free route acts for its caller). A caller whose
 * X-Service-Tenant was outranked by its own tenant sees here which one won. Undefined for an
 * anonymous call to a public route, which acts in no tenant.
 */
export const TENANT_HEADER = 'X-Tenant-Id';

function actedIn(call: Call): string | undefined {
  return call.tenantId ?? call.principal?.tenantId;
}

function writeReply(ctx: Context, reply: Reply, contentType: string | undefined, tenant: string | undefined): void {
  ctx.status = reply.status;
  if (reply.headers) for (const name in reply.headers) ctx.set(name, reply.headers[name] as string);
  if (reply.cookies) ctx.set('Set-Cookie', [...reply.cookies]);
  const { body } = reply;
  if (body === undefined) {
    if (tenant !== undefined) ctx.set(TENANT_HEADER, tenant);
    if (reply.status !== 204) ctx.body = null;
    return;
  }
  if (
    !contentType &&
    isPlainJson(body) &&
    ctx.method !== 'HEAD' &&
    !BODYLESS.has(reply.status) &&
    !ctx.res.hasHeader('content-type')
  ) {
    // Most replies are JSON: the bytes and headers Koa writes for an object body, written here
    // at once. Koa's own way (the body setter's type and length bookkeeping, then respond())
    // cost more per request than the kernel's whole request frame; a HEAD, an empty status and
    // any other body still go through it.
    // The head in one call with a flat list: with nothing set before, Node stores it as it is
    // (the kernel's own headers join it there, response-headers.ts).
    const json = JSON.stringify(body);
    ctx.respond = false;
    const head = ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(json))];
    if (tenant !== undefined) head.push(TENANT_HEADER, tenant);
    ctx.res.writeHead(reply.status, head);
    ctx.res.end(json);
    return;
  }
  if (tenant !== undefined) ctx.set(TENANT_HEADER, tenant);
  ctx.body = body;
  // The manifest's content type, unless the reply named its own (a route serving files of several types).
  if (contentType && !reply.headers?.['Content-Type']) ctx.type = contentType;
}

type RouteHandler = (ctx: Context, params: Record<string, string>, path: string) => Promise<void>;

/** The Koa side of a route: turn the request into a Call, run the pipeline, write the reply. */
function httpHandler(mounted: MountedRoute, http: KernelConfig['http'], streams?: EventStreams): RouteHandler {
  const { route, run } = mounted;
  // A WebSocket route is opened by the server's 'upgrade' listener (upgrade.ts); a plain GET of it is told so.
  if (route.decl.upgrade === 'websocket') {
    return async () => {
      throw new ApiError(
        'upgrade_required',
        `${route.path} opens a WebSocket: send the upgrade handshake with ?ticket=.`,
        { headers: { Upgrade: 'websocket', Connection: 'Upgrade' } },
      );
    };
  }
  const bodyType = route.decl.body_type ?? (route.schemas.body ? 'json' : 'none');
  const limits = { json: http.body_limit_bytes, binary: http.binary_limit_bytes };
  const contentType = route.decl.response.content_type;
  const sse = Boolean(streams) && route.decl.stream === 'sse';
  const dispatch = (ctx: Context, params: Record<string, string>, path: string, body: unknown): Promise<void> => {
    const call = newCall(
      {
        route,
        transport: 'http',
        requestId: String(ctx.state.requestId),
        method: ctx.method,
        path,
        // Koa's protocol and host follow X-Forwarded-Proto and -Host only behind a trusted proxy.
        origin: () => `${ctx.protocol}://${ctx.host}`,
        params,
        query: queryObject(ctx),
        // Node already lower-cases header names; only Set-Cookie arrives as an array, and no route reads it.
        headers: ctx.headers as Record<string, string | undefined>,
        body,
      },
      mounted.db,
    );
    return run(call).then(
      (reply) => {
        if (call.principal) ctx.state.subjectId = call.principal.subjectId;
        const tenant = actedIn(call);
        if (sse && reply.events) {
          const headers = tenant === undefined ? reply.headers : { ...reply.headers, [TENANT_HEADER]: tenant };
          return (streams as EventStreams).send(ctx, reply.events, headers);
        }
        writeReply(ctx, reply, contentType, tenant);
        return undefined;
      },
      (err: unknown) => {
        // The error boundary writes the error; the tenant it was refused in is still named.
        const tenant = actedIn(call);
        if (tenant !== undefined) ctx.set(TENANT_HEADER, tenant);
        throw err;
      },
    );
  };
  // Not async: a request without a body (most of them) goes straight to the pipeline.
  return (ctx, params, path) => {
    ctx.state.routeTemplate = route.path;
    if (bodyType === 'none' && !ctx.req.headers['content-length'] && !ctx.req.headers['transfer-encoding'])
      return dispatch(ctx, params, path, undefined);
    return readBody(ctx, bodyType, limits).then((body) => dispatch(ctx, params, path, body));
  };
}

export interface Endpoint {
  method: string;
  path: string;
}

/**
 * Builds the router from the compiled routes. Paths without parameters are found with one map
 * lookup; the others through @koa/router's matcher, once. Unknown paths are 404; a known path
 * with another method is 405 with `Allow` listing the methods it takes.
 */
export function buildRouter(
  mounted: readonly MountedRoute[],
  http: KernelConfig['http'],
  streams?: EventStreams,
): { route: (ctx: Context) => Promise<void> | void; endpoints: Endpoint[] } {
  // The router is used as a matcher only (its layers' own middleware never runs), so each
  // request is matched once and goes straight to the route's handler.
  const router = new Router();
  // path → method → handler: nested, so a request builds no key string to find its route.
  const exact = new Map<string, Map<string, RouteHandler>>();
  const exactly = (method: string, path: string, handler: RouteHandler): void => {
    let byMethod = exact.get(path);
    if (!byMethod) exact.set(path, (byMethod = new Map()));
    byMethod.set(method, handler);
  };
  const handlers = new Map<unknown, RouteHandler>();
  for (const entry of mounted) {
    const handler = httpHandler(entry, http, streams);
    const { method } = entry.route.decl;
    const layer = router.register(routerPath(entry.route.decl.path), [method], () => undefined);
    handlers.set(layer, handler);
    if (!entry.route.path.includes('{')) {
      exactly(method, entry.route.path, handler);
      if (method === 'GET') exactly('HEAD', entry.route.path, handler);
    }
  }
  // What the router really serves (HEAD is Koa's automatic twin of GET), read back from its layers.
  const endpoints = router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
  // Not async: it hands back the handler's promise itself (or throws a 404 or 405 at once), and
  // reads the path (which Koa parses from the URL on each access) once.
  const route = (ctx: Context): Promise<void> | void => {
    const path = ctx.path;
    const fast = exact.get(path)?.get(ctx.method);
    if (fast) return fast(ctx, {}, path);
    const match = router.match(path, ctx.method);
    const layer = match.pathAndMethod[match.pathAndMethod.length - 1];
    const handler = layer && handlers.get(layer);
    if (layer && handler) {
      return handler(ctx, layer.params(path, layer.captures(path), {}), path);
    }
    if (match.path.length === 0) throw new ApiError('not_found', `No route ${ctx.method} ${path}.`);
    const allowed = new Set(match.path.flatMap((l) => l.methods));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', [...allowed].join(', '));
      return;
    }
    throw new ApiError('method_not_allowed', `${path} does not accept ${ctx.method}.`, {
      headers: { Allow: [...allowed].join(', ') },
    });
  };
  return { route, endpoints };
}
