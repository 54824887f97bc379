import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Lease } from '../../../kernel/plugin/api.js';
import type { Clock } from '../../../kernel/types.js';
import { rollUp } from '../dashboard/hourly.js';
import type { WorkflowInputMessage, WorkflowStream, WorkflowStreams } from '../contract.js';
import { backoffMs, type Definition } from '../definition.js';
import type { Labels } from '../metrics.js';
import { RunStore } from '../store.js';
import { WorkerStore, type RetryRow } from '../worker-store.js';
import type { WorkerOptions } from './options.js';
import type { RunHealth } from './health.js';
import { combinable, writeCombined } from './commit-combined.js';
import { errorText, toOutput, type Outcome } from './outcome.js';
import { recordsOf } from './records.js';
import type { Pipeline } from './pipeline.js';

/** A batch processed and ready to commit. */
export interface Prepared {
  key: string;
  lease: Lease;
  labels: Labels;
  tenantId: string;
  workflowId: string;
  partition: number;
  revision: number;
  definition: Definition;
  pipeline: Pipeline;
  input: WorkflowStream;
  committed: number;
  batch: WorkflowInputMessage[];
  outcomes: Outcome[];
  failed: Outcome | undefined;
  attempts: number;
  dead: boolean;
  retry: RetryRow | null;
}

/** What a batch's transaction wrote. */
export interface Written {
  count: number;
  next: number;
  retry: RetryRow | null;
}

/** A batch left to be read again (its lease or offset moved meanwhile): coordination, not a failure to show. */
class ReadAgain extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadAgain';
  }
}

/**
 * The batch's transaction, fenced by the lease: if another instance took the partition, nothing
 * of this batch is written (the new holder processes it again), which is what makes it exactly-once.
 * When it fails for another reason than a lost lease (a stream sink whose codec no longer takes the
 * outputs after a forced change, say), the workflow shows it (`last_error`, GET /logs, the
 * workflow_failed signal) while the runner retries the batch with backoff; the next batch that
 * commits clears it.
 */
export async function commitBatch(
  o: WorkerOptions,
  streams: WorkflowStreams,
  health: RunHealth,
  p: Prepared,
): Promise<Written> {
  const started = performance.now();
  const written = await (combinable(streams, p) ? writeCombined(o, streams, p) : Promise.resolve(undefined))
    .then(
      (combined) =>
        combined ??
        o.db.transaction(async (trx) => {
          if (!(await o.jobs.leases.fence(trx, p.lease)))
            throw new ReadAgain('the partition lease moved to another instance; this batch is left to it');
          return writeBatch(trx, streams, o.clock, p);
        }),
    )
    .catch(async (err: unknown) => {
      if (!(err instanceof ReadAgain))
        await health
          .workflow(p.tenantId, p.workflowId, `cannot write its outputs: ${errorText(err)}`)
          .catch(() => undefined);
      throw err;
    });
  o.timings?.('commit', (performance.now() - started) / 1000, p.outcomes.length);
  return written;
}

/** The batch's effects, in the caller's transaction; the number of messages written to stream sinks. */
async function writeBatch(
  trx: Knex.Transaction,
  streams: WorkflowStreams,
  clock: Clock,
  b: Prepared,
): Promise<Written> {
  const now = clock.now();
  const ok = b.outcomes.filter((o) => o.error === undefined);
  const outputIds = new Map<Outcome, string[]>(ok.map((o) => [o, []]));
  let written = 0;
  for (const sink of b.pipeline.sinks) {
    if (sink.kind !== 'stream') continue;
    const owners: Outcome[] = [];
    const messages = ok.flatMap((o) =>
      (o.outputs ?? []).map((m) => {
        owners.push(o);
        return toOutput(m, sink.key, o.message.id);
      }),
    );
    const appended = await streams.publish(trx, sink.stream, messages);
    appended.forEach((a, i) => outputIds.get(owners[i] as Outcome)?.push(a.id));
    written += appended.length;
  }
  const { runs, deliveries, counted } = recordsOf(b, ok, now, outputIds);
  const retries = new WorkerStore(trx);
  let retry: RetryRow | null = b.retry;
  let next = ok.length > 0 ? (ok.at(-1) as Outcome).message.offset + 1 : b.committed;
  if (b.failed) {
    const f = b.failed;
    const status = b.dead ? 'dead' : 'failed';
    const outputs: string[] = [];
    if (b.dead && b.definition.on_error.dead_letter_stream) {
      const dlq = await streams.stream(trx, b.tenantId, b.definition.on_error.dead_letter_stream);
      if (dlq) {
        const m = f.message;
        const copied = await streams.publish(trx, dlq, [
          {
            key: m.key,
            headers: {
              ...m.headers,
              'x-dead-letter-of': m.id,
              'x-dead-letter-workflow': b.workflowId,
              'x-dead-letter-error': (f.error ?? '').slice(0, 500),
            },
            body: m.body,
            contentType: m.contentType,
          },
        ]);
        outputs.push(...copied.map((c) => c.id));
      }
    }
    deliveries.push({
      tenantId: b.tenantId,
      messageId: f.message.id,
      workflow: b.workflowId,
      revision: b.revision,
      runId: f.runId,
      status,
      error: f.error ?? null,
      outputs,
      at: now,
      publishedAt: f.message.publishedAt,
    });
    runs.push({
      id: f.runId,
      workflow: b.workflowId,
      revision: b.revision,
      message_id: f.message.id,
      status,
      error: f.error ?? null,
      outputs,
    });
    if (b.dead) {
      next = f.message.offset + 1;
      if (retry) await retries.clearRetry(b.tenantId, b.workflowId, b.partition);
      retry = null;
    } else {
      retry = {
        offset: f.message.offset,
        attempts: b.attempts,
        run_id: f.runId,
        revision: b.revision,
        retry_at: new Date(now.getTime() + backoffMs(b.definition.on_error, b.attempts)),
      };
      await retries.setRetry(b.tenantId, b.workflowId, b.partition, retry);
    }
  } else if (retry) {
    await retries.clearRetry(b.tenantId, b.workflowId, b.partition);
    retry = null;
  }
  await new RunStore(trx).record(b.tenantId, runs, now);
  // The deliveries ride with the offset commit (one statement); without a move they go alone.
  if (next === b.committed) await streams.recordDeliveries(trx, deliveries);
  else if (!(await streams.commit(trx, b.input, b.workflowId, b.partition, b.committed, next, deliveries))) {
    throw new ReadAgain('the committed offset moved under this batch (a commit through the API?); reading again');
  }
  // The dashboard's hourly counters move with the deliveries, in this transaction.
  const retried = b.retry?.run_id;
  if (b.failed)
    counted.push({ status: b.dead ? 'dead' : 'failed', first: b.failed.runId !== retried, latencyMs: null });
  await rollUp(trx, { tenantId: b.tenantId, workflowId: b.workflowId, at: now }, counted);
  return { count: written, next, retry };
}
