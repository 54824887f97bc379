import { performance } from 'node:perf_hooks';
import Koa, { type Context } from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KernelConfig } from '../config/types.js';
import { requestIdOf } from './request-id.js';
import { setResponseHeaders, StampedResponse } from './response-headers.js';
import { accessLog } from './access-log.js';
import { httpMetrics } from './metrics.js';
import { errorBoundary } from './error-boundary.js';
import { buildRouter, type Endpoint, type MountedRoute } from './router.js';
import type { EventStreams } from './sse.js';

/**
 * The HTTP transport: request id → response headers → route, with a failure answered by the
 * error boundary, then metrics and the access log once the response is decided.
 *
 * One Koa middleware rather than one per concern: each layer Koa composes costs a bound
 * function, a promise and a microtask turn per request, which on /health added up to more than
 * the route itself. Here the fixed steps are plain calls and the route's promise is continued
 * once; the order and the outcome are those of the layered chain it replaces.
 */
export function createHttpApp(input: {
  config: Readonly<KernelConfig>;
  logger: Logger;
  metrics: Registry;
  mounted: readonly MountedRoute[];
  streams?: EventStreams;
}): { app: Koa; endpoints: Endpoint[] } {
  const app = new Koa({ proxy: input.config.http.trust_proxy });
  // Koa would print errors to stderr itself; the error boundary already logs them once.
  app.silent = true;
  const router = buildRouter(input.mounted, input.config.http, input.streams);
  const fail = errorBoundary(input.logger);
  const observe = httpMetrics(input.metrics);
  const log = input.logger.isLevelEnabled('info') ? accessLog(input.logger) : undefined;
  const finish = (ctx: Context, started: number): void => {
    const ms = performance.now() - started;
    observe(ctx, ms);
    log?.(ctx, ms);
  };
  app.use((ctx) => {
    const id = requestIdOf(ctx.req.headers);
    ctx.state.requestId = id;
    const res = ctx.res;
    // The server's own responses add the headers as their head is written (response-headers.ts);
    // a response made elsewhere (an upgrade's plain answer, a test's server) gets them now.
    if (res instanceof StampedResponse) res.requestId = id;
    else {
      res.setHeader('X-Request-Id', id);
      setResponseHeaders(res);
    }
    const started = performance.now();
    const failed = (err: unknown): void => {
      try {
        fail(ctx, err);
      } finally {
        finish(ctx, started);
      }
    };
    let routed: Promise<void> | void;
    try {
      routed = router.route(ctx);
    } catch (err) {
      // 404, 405 and the like are thrown before any promise exists.
      failed(err);
      return;
    }
    if (!routed) {
      finish(ctx, started);
      return;
    }
    return routed.then(() => finish(ctx, started), failed);
  });
  return { app, endpoints: router.endpoints };
}
