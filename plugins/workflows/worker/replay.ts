import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { rollUp } from '../dashboard/hourly.js';
import type { WorkflowStreams } from '../contract.js';
import type { Definition } from '../definition.js';
import { runId as newRunId } from '../ids.js';
import { RunStore, type RunOutcome } from '../store.js';
import type { WorkerOptions } from './options.js';
import { errorText, succeeded, toOutput, toRuntime, type Outcome } from './outcome.js';
import { buildPipeline, runMessage, stopPipeline } from './pipeline.js';
import { stepContext } from './step-context.js';

/**
 * A new run of a run's message on `revision`, in the caller's transaction (a request's): one
 * attempt, its outputs written to the stream sinks with the run, as new history. It bypasses the
 * partition (no offset moves, no retry): a replay is something a user asked for, not the backlog.
 */
export async function replay(
  o: WorkerOptions,
  streams: WorkflowStreams,
  trx: Knex.Transaction,
  tenantId: string,
  workflowId: string,
  original: { id: string; message_id: string },
  revision: number,
  definition: Definition,
): Promise<RunOutcome> {
  const message = await streams.message(trx, tenantId, original.message_id);
  if (!message) throw new Error(`the message ${original.message_id} of run ${original.id} is gone (retention)`);
  const pipeline = await buildPipeline(trx, o.resolvers, tenantId, revision, definition);
  const id = newRunId();
  const outcome: Outcome = { message, runId: id, startedAt: performance.now() };
  try {
    // A replayed run is new history: its outputs are named by its own run id, not the message's.
    outcome.outputs = await runMessage(
      pipeline,
      toRuntime(message),
      stepContext(o.logs, tenantId, workflowId, id, new AbortController().signal),
      id,
    );
  } catch (err) {
    outcome.error = errorText(err);
  } finally {
    await stopPipeline(pipeline);
  }
  const now = o.clock.now();
  const outputs: string[] = [];
  if (outcome.error === undefined) {
    for (const sink of pipeline.sinks) {
      if (sink.kind !== 'stream') continue;
      const appended = await streams.publish(
        trx,
        sink.stream,
        (outcome.outputs ?? []).map((m) => toOutput(m, sink.key, message.id)),
      );
      outputs.push(...appended.map((a) => a.id));
    }
  }
  const status = outcome.error === undefined ? succeeded(outcome.outputs) : 'failed';
  await streams.recordDeliveries(trx, [
    {
      tenantId,
      messageId: message.id,
      workflow: workflowId,
      revision,
      runId: id,
      status,
      error: outcome.error ?? null,
      outputs,
      at: now,
      publishedAt: message.publishedAt,
    },
  ]);
  await rollUp(trx, { tenantId, workflowId, at: now }, [
    { status, first: true, latencyMs: status === 'processed' ? now.getTime() - message.publishedAt.getTime() : null },
  ]);
  const run: RunOutcome = {
    id,
    workflow: workflowId,
    revision,
    message_id: message.id,
    status,
    error: outcome.error ?? null,
    outputs,
    replay_of: original.id,
  };
  await new RunStore(trx).record(tenantId, [run], now);
  return run;
}
