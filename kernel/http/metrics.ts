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
  // prom-client hashes label objects on every call; bound children per label set avoid that.
  const series = new Map<string, { count: () => void; observe: (seconds: number) => void }>();
  function seriesFor(method: string, route: string, status: number): { count: () => void; observe: (seconds: number) => void } {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (!found) {
      const counter = requests.labels(method, route, String(status));
      const histogram = duration.labels(method, route, String(status));
      found = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      series.set(key, found);
    }
    return found;
  }
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const s = seriesFor(ctx.method, String(ctx.state.routeTemplate ?? 'unmatched'), ctx.status);
      s.count();
      s.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
