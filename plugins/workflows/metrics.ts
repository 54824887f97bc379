import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * Per-workflow metrics on /metrics. Labels: `tenant`, `workflow` and `stream` (the workflow's
 * input, so it adds no series). Cardinality is bounded: this instance labels at most
 * `maxSeries` distinct (tenant, workflow) pairs (settings.workflows.metrics_max_series, default
 * 200); every further pair is counted under tenant="_other", workflow="_other", stream="_other".
 * The bound per metric is therefore maxSeries + 1 series (histogram: × its 10 buckets).
 */
export interface WorkflowMetrics {
  processed(labels: Labels, inCount: number, outCount: number): void;
  failed(labels: Labels): void;
  dead(labels: Labels): void;
  latency(labels: Labels, seconds: number): void;
  /** What this instance sees of a partition it works on: lag (messages) and oldest unacked age. */
  position(labels: Labels, partition: number, lag: number, oldestSeconds: number): void;
  /** A partition this instance no longer works on. */
  forget(labels: Labels, partition: number): void;
}

export interface Labels {
  tenant: string;
  workflow: string;
  stream: string;
}

export function workflowMetrics(registry: Registry, maxSeries: number): WorkflowMetrics {
  const names = ['tenant', 'workflow', 'stream'];
  const known = new Set<string>();
  const bound = (l: Labels): Labels => {
    const key = `${l.tenant}\u001f${l.workflow}`;
    if (known.has(key)) return l;
    if (known.size < maxSeries) {
      known.add(key);
      return l;
    }
    return { tenant: '_other', workflow: '_other', stream: '_other' };
  };
  const messagesIn = new Counter({
    name: 'workflow_messages_in_total',
    help: 'Input messages a workflow finished (processed or dead).',
    labelNames: names,
    registers: [registry],
  });
  const messagesOut = new Counter({
    name: 'workflow_messages_out_total',
    help: 'Messages a workflow wrote to its stream sinks.',
    labelNames: names,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'workflow_failures_total',
    help: 'Failed attempts (each retry counts).',
    labelNames: names,
    registers: [registry],
  });
  const dead = new Counter({
    name: 'workflow_dead_total',
    help: 'Messages that became dead after max_attempts.',
    labelNames: names,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'workflow_processing_seconds',
    help: 'Time from reading a message to committing its outcome.',
    labelNames: names,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 30],
    registers: [registry],
  });
  // Partition positions this instance holds: summed (lag) and maxed (age) per workflow at scrape time.
  const positions = new Map<string, { labels: Labels; partitions: Map<string, { lag: number; age: number }> }>();
  const keyOf = (l: Labels): string => `${l.tenant}\u001f${l.workflow}\u001f${l.stream}`;
  new Gauge({
    name: 'workflow_lag_messages',
    help: 'Messages after the committed offset, summed over the partitions this instance works on.',
    labelNames: names,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, partitions } of positions.values())
        this.set(
          { ...labels },
          [...partitions.values()].reduce((s, p) => s + p.lag, 0),
        );
    },
  });
  new Gauge({
    name: 'workflow_oldest_unacked_seconds',
    help: 'Age of the oldest message not yet processed, over the partitions this instance works on.',
    labelNames: names,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, partitions } of positions.values())
        this.set({ ...labels }, Math.max(0, ...[...partitions.values()].map((p) => p.age)));
    },
  });
  return {
    processed(l, inCount, outCount) {
      const b = bound(l);
      messagesIn.inc({ ...b }, inCount);
      if (outCount > 0) messagesOut.inc({ ...b }, outCount);
    },
    failed: (l) => failures.inc({ ...bound(l) }),
    dead: (l) => dead.inc({ ...bound(l) }),
    latency: (l, s) => latency.observe({ ...bound(l) }, s),
    position(l, partition, lag, age) {
      const b = bound(l);
      const entry = positions.get(keyOf(b)) ?? { labels: b, partitions: new Map() };
      // Under "_other" several workflows share an entry: their partitions are keyed apart.
      entry.partitions.set(`${l.tenant}\u001f${l.workflow}\u001f${partition}`, { lag, age });
      positions.set(keyOf(b), entry);
    },
    forget(l, partition) {
      const b = bound(l);
      const entry = positions.get(keyOf(b));
      entry?.partitions.delete(`${l.tenant}\u001f${l.workflow}\u001f${partition}`);
      if (entry && entry.partitions.size === 0) positions.delete(keyOf(b));
    },
  };
}
