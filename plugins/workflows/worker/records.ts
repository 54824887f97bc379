import type { CountedAttempt } from '../dashboard/hourly.js';
import type { WorkflowDelivery } from '../contract.js';
import type { RunOutcome } from '../store.js';
import type { Prepared } from './commit.js';
import { succeeded, type Outcome } from './outcome.js';

/** The runs, deliveries and counted attempts of the outcomes that went through (their outputs' stream ids aside). */
export function recordsOf(
  b: Prepared,
  ok: readonly Outcome[],
  now: Date,
  outputIds?: ReadonlyMap<Outcome, string[]>,
): { runs: RunOutcome[]; deliveries: WorkflowDelivery[]; counted: CountedAttempt[] } {
  const runs: RunOutcome[] = [];
  const deliveries: WorkflowDelivery[] = [];
  const counted: CountedAttempt[] = [];
  const retried = b.retry?.run_id;
  for (const o of ok) {
    const outputs = outputIds?.get(o) ?? [];
    const status = succeeded(o.outputs);
    deliveries.push({
      tenantId: b.tenantId,
      messageId: o.message.id,
      workflow: b.workflowId,
      revision: b.revision,
      runId: o.runId,
      status,
      error: null,
      outputs,
      at: now,
      publishedAt: o.message.publishedAt,
    });
    runs.push({
      id: o.runId,
      workflow: b.workflowId,
      revision: b.revision,
      message_id: o.message.id,
      status,
      error: null,
      outputs,
    });
    counted.push({ status, first: o.runId !== retried, latencyMs: now.getTime() - o.message.publishedAt.getTime() });
  }
  return { runs, deliveries, counted };
}
