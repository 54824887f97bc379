import { performance } from 'node:perf_hooks';
import type { WorkflowStreams } from '../contract.js';
import type { Written, Prepared } from './commit.js';
import type { RunHealth } from './health.js';
import { componentsUsed } from './held.js';
import type { WorkerOptions } from './options.js';

/** Lag and age are measured at most this often per partition. */
const POSITION_EVERY_MS = 1000;

/**
 * Metrics, logs, health and the partition's position once a batch has committed: everything a
 * user watches, done only after the commit so it never reports work that rolled back.
 * `position` holds when lag was last measured for the partition (it is moved when measured again).
 */
export async function account(
  o: WorkerOptions,
  streams: WorkflowStreams,
  health: RunHealth,
  p: Prepared,
  written: Written,
  position: { lagAt: number },
): Promise<void> {
  const {
    labels,
    tenantId,
    workflowId,
    failed,
    dead,
    attempts,
    definition,
    revision,
    outcomes,
    batch,
    input,
    partition,
  } = p;
  const end = performance.now();
  const ok = outcomes.filter((o) => o.error === undefined);
  o.metrics.processed(labels, ok.length + (dead ? 1 : 0), written.count);
  for (const x of ok) o.metrics.latency(labels, (end - x.startedAt) / 1000);
  // The workflow (and a failing component) show what broke, until a batch goes through again.
  if (failed) {
    await health.workflow(tenantId, workflowId, failed.error ?? 'failed').catch(() => undefined);
    if (failed.componentId)
      await health.component(tenantId, workflowId, failed.componentId, failed.error ?? 'failed').catch(() => undefined);
  } else if (ok.length > 0) {
    await health.workflow(tenantId, workflowId, null).catch(() => undefined);
    await health.recovered(tenantId, workflowId, componentsUsed(definition)).catch(() => undefined);
  }
  if (failed) {
    o.metrics.failed(labels);
    if (dead) o.metrics.dead(labels);
    void o.logs.write({
      tenantId,
      level: dead ? 'error' : 'warn',
      source: 'workflows',
      message: dead
        ? `message is dead after ${attempts} attempts`
        : `attempt ${attempts} of ${definition.on_error.max_attempts} failed; retrying`,
      fields: { workflow: workflowId, run: failed.runId, message: failed.message.id, revision, error: failed.error },
    });
  }
  if (performance.now() - position.lagAt >= POSITION_EVERY_MS) {
    position.lagAt = performance.now();
    const next = batch[outcomes.length - (failed && !dead ? 1 : 0)];
    const streamEnd = await streams.end(o.db, input, partition).catch(() => undefined);
    o.metrics.position(
      labels,
      partition,
      streamEnd === undefined ? 0 : Math.max(0, streamEnd - written.next),
      next ? Math.max(0, (o.clock.now().getTime() - next.publishedAt.getTime()) / 1000) : 0,
    );
  }
}
