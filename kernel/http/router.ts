import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { ApiError } from '../errors.js';
import { routerPath } from '../manifest/compile.js';
import type { KernelConfig } from '../config/types.js';
import type { Call, CompiledRoute, Reply } from '../types.js';
import { readBody } from './body.js';
import { newCall } from '../pipeline/call.js';

export interface MountedRoute {
  route: CompiledRoute;
  run: (call: Call) => Promise<Reply>;
}

function queryObject(ctx: Context): Record<string, unknown> {
  return { ...(ctx.query as Record<string, unknown>) };
}

function headerObject(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(ctx.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function writeReply(ctx: Context, reply: Reply, contentType: string | undefined): void {
  ctx.status = reply.status;
  for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
  if (reply.body !== undefined) {
    ctx.body = reply.body;
    if (contentType) ctx.type = contentType;
  } else if (reply.status !== 204) {
    ctx.body = null;
  }
}

/** The Koa side of a route: turn the request into a Call, run the pipeline, write the reply. */
function httpHandler(mounted: MountedRoute, http: KernelConfig['http']): Middleware {
  const { route, run } = mounted;
  const bodyType = route.decl.body_type ?? (route.schemas.body ? 'json' : 'none');
  const limits = { json: http.body_limit_bytes, binary: http.binary_limit_bytes };
  return async (ctx) => {
    ctx.state.routeTemplate = route.path;
    const call = newCall({
      route,
      transport: 'http',
      requestId: String(ctx.state.requestId),
      method: ctx.method,
      path: ctx.path,
      params: { ...(ctx as unknown as { params: Record<string, string> }).params },
      query: queryObject(ctx),
      headers: headerObject(ctx),
      body: await readBody(ctx, bodyType, limits),
    });
    const reply = await run(call);
    if (call.principal) ctx.state.subjectId = call.principal.subjectId;
    writeReply(ctx, reply, route.decl.response.content_type);
  };
}

/**
 * Builds the router from the compiled routes. Unknown paths are 404; a known path with another
 * method is 405 with `Allow` listing the methods it takes.
 */
export interface Endpoint {
  method: string;
  path: string;
}

export function buildRouter(mounted: readonly MountedRoute[], http: KernelConfig['http']): { middleware: Middleware; endpoints: Endpoint[] } {
  const router = new Router();
  for (const entry of mounted) {
    router.register(routerPath(entry.route.path), [entry.route.decl.method], httpHandler(entry, http));
  }
  const routes = router.routes() as unknown as Middleware;
  // What the router really serves (HEAD is Koa's automatic twin of GET), read back from its layers.
  const endpoints = router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })));
  const middleware: Middleware = async (ctx, next) => {
    const match = router.match(ctx.path, ctx.method);
    if (!match.route) {
      if (match.path.length === 0) throw new ApiError('not_found', `No route ${ctx.method} ${ctx.path}.`);
      const allowed = new Set(match.path.flatMap((layer) => layer.methods));
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Allow', [...allowed].join(', '));
        return;
      }
      throw new ApiError('method_not_allowed', `${ctx.path} does not accept ${ctx.method}.`, { headers: { Allow: [...allowed].join(', ') } });
    }
    await routes(ctx, next);
  };
  return { middleware, endpoints };
}
