import type { Context } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';

type Labels = 'method' | 'route' | 'status';

const DURATION = 'http_request_duration_seconds';
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const HELP = 'HTTP request latency in seconds, by method, route template and status.';

/** A histogram as prom-client's registry reads it: one value per bucket, then sum and count. */
interface ExportedValue {
  labels: Partial<Record<Labels | 'le', string | number>>;
  value: number;
  metricName: string;
}

interface Exported {
  name: string;
  help: string;
  type: 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

/** One label set's figures, counted by the middleware itself. */
interface Series {
  labels: Record<Labels, string>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  buckets: number[];
}

/**
 * The latency histogram read from the series. prom-client's own observe() builds and checks a
 * label key string on every call, which was a tenth of the kernel's cost of a /health request;
 * here a request adds to its series, and the buckets are summed when metrics are read.
 */
class SeriesHistogram extends Histogram<Labels> {
  constructor(
    private readonly series: readonly Series[],
    registry: Registry,
  ) {
    super({
      name: DURATION,
      help: HELP,
      labelNames: ['method', 'route', 'status'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  override async get(): ReturnType<Histogram<Labels>['get']> {
    const values: ExportedValue[] = [];
    for (const s of this.series) {
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i] as number;
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${DURATION}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${DURATION}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${DURATION}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${DURATION}_count` });
    }
    const exported: Exported = { name: DURATION, help: HELP, type: 'histogram', values, aggregator: 'sum' };
    // prom-client declares `type` as a numeric enum and a `collect` member; at run time (and in
    // what its own get() returns) the type is the text 'histogram' and there is no collect.
    return exported as unknown as Awaited<ReturnType<Histogram<Labels>['get']>>;
  }

  /** What prom-client's registry reads a histogram through when it writes the text format. */
  getForPromString(): ReturnType<Histogram<Labels>['get']> {
    return this.get();
  }
}

/**
 * Request count and latency by route template (never the raw path: bounded label values): the
 * observer of one request, called with its duration in milliseconds once its response is decided.
 */
export function httpMetrics(registry: Registry): (ctx: Context, ms: number) => void {
  const series: Series[] = [];
  // Filled from the series when metrics are read, like the histogram.
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
  new SeriesHistogram(series, registry);
  // route template → method → status code → series: nested, so no key string is built per request.
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();
  function seriesFor(method: string, route: string, status: number): Series {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      found = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Array<number>(BUCKETS.length + 1).fill(0),
      };
      byStatus.set(status, found);
      series.push(found);
    }
    return found;
  }
  // The app's request frame measures the time once for this and the access log.
  return (ctx, ms) => {
    const seconds = ms / 1000;
    const s = seriesFor(ctx.method, String(ctx.state.routeTemplate ?? 'unmatched'), ctx.status);
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket += 1;
    s.buckets[bucket] = (s.buckets[bucket] as number) + 1;
    s.count += 1;
    s.sum += seconds;
  };
}
