import type { Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Request count and latency by route template (never the raw path: bounded label values). */
export function httpMetrics(registry: Registry): Middleware {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests served, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return async (ctx, next) => {
    const stop = duration.startTimer();
    try {
      await next();
    } finally {
      const labels = { method: ctx.method, route: String(ctx.state.routeTemplate ?? 'unmatched'), status: String(ctx.status) };
      requests.inc(labels);
      stop(labels);
    }
  };
}
