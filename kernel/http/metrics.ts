import type { Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';

type Labels = 'method' | 'route' | 'status';

/** One label set's figures: its request count is ours, its latency buckets prom-client's. */
interface Series {
  labels: Record<Labels, string>;
  count: number;
  observe(seconds: number): void;
}

/**
 * Request count and latency by route template (never the raw path: bounded label values).
 * Every request passes here, so a request costs two map lookups, an increment and one
 * histogram observation: the counter is not incremented through prom-client (which builds
 * and checks a label key on each call) but filled from the series when metrics are read.
 */
export function httpMetrics(registry: Registry): Middleware {
  const series: Series[] = [];
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests served, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of series) this.inc(s.labels, s.count);
    },
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // route template → method → status code → series: nested, so no key string is built per request.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();
  function seriesFor(method: string, route: string, status: number): Series {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      const labels = { method, route, status: String(status) };
      const histogram = duration.labels(labels);
      found = { labels, count: 0, observe: (seconds) => histogram.observe(seconds) };
      byStatus.set(status, found);
      series.push(found);
    }
    return found;
  }
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const s = seriesFor(ctx.method, String(ctx.state.routeTemplate ?? 'unmatched'), ctx.status);
      s.count += 1;
      s.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
