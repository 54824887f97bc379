import { Registry, collectDefaultMetrics } from 'prom-client';

// prom-client also publishes these gauges with a `_total` suffix, which Prometheus reserves for
// counters (promtool check metrics flags them). The same figures stay available without the
// suffix (nodejs_active_handles, nodejs_active_requests, nodejs_active_resources).
const MISNAMED = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** The process-wide metrics registry: Node/process metrics plus whatever the kernel adds. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED) registry.removeSingleMetric(name);
  return registry;
}
