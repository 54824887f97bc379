import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KernelConfig } from '../config/types.js';
import { requestId } from './request-id.js';
import { responseHeaders } from './response-headers.js';
import { accessLog } from './access-log.js';
import { httpMetrics } from './metrics.js';
import { errorBoundary } from './error-boundary.js';
import { buildRouter, type Endpoint, type MountedRoute } from './router.js';
import type { EventStreams } from './sse.js';

/** The HTTP transport: request id → response headers → access log → metrics → error boundary → router. */
export function createHttpApp(input: { config: Readonly<KernelConfig>; logger: Logger; metrics: Registry; mounted: readonly MountedRoute[]; streams?: EventStreams }): { app: Koa; endpoints: Endpoint[] } {
  const app = new Koa({ proxy: input.config.http.trust_proxy });
  // Koa would print errors to stderr itself; the error boundary already logs them once.
  app.silent = true;
  app.use(requestId());
  app.use(responseHeaders());
  if (input.logger.isLevelEnabled('info')) app.use(accessLog(input.logger));
  app.use(httpMetrics(input.metrics));
  app.use(errorBoundary(input.logger));
  const router = buildRouter(input.mounted, input.config.http, input.streams);
  app.use(router.middleware);
  return { app, endpoints: router.endpoints };
}
