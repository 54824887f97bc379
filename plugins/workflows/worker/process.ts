import { performance } from 'node:perf_hooks';
import type { WorkflowInputMessage } from '../contract.js';
import { runId as newRunId } from '../ids.js';
import type { RetryRow } from '../worker-store.js';
import type { WorkerOptions } from './options.js';
import { errorText, toRuntime, type Outcome } from './outcome.js';
import { runBatch, StepFailure, type Pipeline } from './pipeline.js';
import { stepContext } from './step-context.js';

/**
 * Runs a batch through the pipeline: one outcome per message that went through and, when one
 * failed, its outcome last (the batch stops there; what follows waits for the retry). A message
 * being retried on the same revision keeps its run id, so its attempts are one run's history.
 */
export async function processBatch(
  o: WorkerOptions,
  pipeline: Pipeline,
  batch: WorkflowInputMessage[],
  retrying: RetryRow | undefined,
  run: { tenantId: string; workflowId: string; revision: number; signal: AbortSignal },
): Promise<Outcome[]> {
  const { tenantId, workflowId, revision, signal } = run;
  const runIds = batch.map((message) =>
    retrying && Number(retrying.offset) === message.offset && retrying.revision === revision
      ? retrying.run_id
      : newRunId(),
  );
  const startedAt = performance.now();
  const ran = await runBatch(
    pipeline,
    batch.map(toRuntime),
    (i) => stepContext(o.logs, tenantId, workflowId, runIds[i] as string, signal),
    signal,
  );
  o.timings?.('sandbox', ran.processSeconds, batch.length);
  if (pipeline.sinks.some((s) => s.kind === 'external')) o.timings?.('sink', ran.sinkSeconds, ran.outputs.length);
  const outcomes: Outcome[] = ran.outputs.map((outputs, i) => ({
    message: batch[i] as WorkflowInputMessage,
    runId: runIds[i] as string,
    startedAt,
    outputs,
  }));
  if (ran.failed)
    outcomes.push({
      message: batch[ran.failed.index] as WorkflowInputMessage,
      runId: runIds[ran.failed.index] as string,
      startedAt,
      error: errorText(ran.failed.error),
      ...(ran.failed.error instanceof StepFailure && ran.failed.error.componentId
        ? { componentId: ran.failed.error.componentId }
        : {}),
    });
  return outcomes;
}
