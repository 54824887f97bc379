import { rollUp, type CountedAttempt } from '../dashboard/hourly.js';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Extensions, JobContext, JobOutcome, JobSpec, Jobs, Lease, RuntimeLog } from '../../../kernel/plugin/api.js';
import type { Clock } from '../../../kernel/types.js';
import type { RuntimeMessage, StepContext } from '../../components/contract.js';
import { workflowStreams, type WorkflowDelivery, type WorkflowInputMessage, type WorkflowOutputMessage, type WorkflowStream, type WorkflowStreams } from '../contract.js';
import { backoffMs, type Definition } from '../definition.js';
import { runId as newRunId } from '../ids.js';
import type { Labels, WorkflowMetrics } from '../metrics.js';
import { RunStore, WorkflowStore, type RunOutcome } from '../store.js';
import { streamsOf, type Resolvers } from '../validate.js';
import { buildPipeline, runMessage, stopPipeline, type Pipeline } from './pipeline.js';

export const WORKER_JOB = 'workflows.worker';
/** How long a built pipeline is reused before it is built again (picks up changed components). */
const PIPELINE_TTL_MS = 30_000;
/** The header each output carries: the input message it came from. */
export const SOURCE_HEADER = 'x-workflow-source';

interface RetryRow {
  offset: string | number;
  attempts: number;
  run_id: string;
  revision: number;
  retry_at: Date | string;
}

/** What the holder of a partition's lease may keep between batches: nobody else writes it while the lease (this epoch) is ours. */
interface PartitionState {
  epoch: number;
  committed: number | undefined;
  /** The retry row as last read or written; null when there is none. */
  retry: RetryRow | null | undefined;
  lagAt: number;
  /** The previous batch's transaction while it commits (the next one is processed meanwhile). */
  inFlight?: { prepared: Prepared; written: Promise<Written> } | undefined;
}

/** A batch processed and ready to commit. */
interface Prepared {
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
interface Written {
  count: number;
  next: number;
  retry: RetryRow | null;
}

/** How long a deployed revision's input stream is trusted before it is looked up again (a stream re-created under its id). */
const DEPLOYMENT_TTL_MS = 5000;
/** The longest one run keeps working through a backlog before it hands back to the job runner. */
const RUN_SLICE_MS = 2000;

/** The next batch of a partition and the workflow's deployment, read while the previous batch committed. */
interface Ahead {
  deployment: Deployment | null;
  /** The input stream it was read from (a deploy may have changed it). */
  uid: string;
  from: number;
  batch: WorkflowInputMessage[];
}

/** Lag and age are measured at most this often per partition. */
const POSITION_EVERY_MS = 1000;

interface Deployment {
  at: number;
  revision: number;
  definition: Definition;
  input: WorkflowStream;
}

export interface WorkerOptions {
  db: Knex;
  extensions: Extensions;
  resolvers: Resolvers;
  jobs: Jobs;
  logs: RuntimeLog;
  metrics: WorkflowMetrics;
  clock: Clock;
  logger: Logger;
  pollMs: number;
  leaseMs: number;
}

/** What processing one message came to. */
interface Outcome {
  message: WorkflowInputMessage;
  runId: string;
  startedAt: number;
  outputs?: RuntimeMessage[];
  error?: string;
}

function toRuntime(m: WorkflowInputMessage): RuntimeMessage {
  const message: RuntimeMessage = { id: m.id, key: m.key, headers: m.headers, body: m.body, content_type: m.contentType };
  if (m.contentType === 'application/json') {
    try {
      message.value = JSON.parse(m.body.toString('utf8')) as unknown;
    } catch {
      // Not JSON after all: processors see the bytes.
    }
  }
  return message;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 4000);

/**
 * The workflow workers: one keyed job whose keys are (tenant, workflow, partition) of every
 * running workflow, so the instances share the partitions by lease. A run reads a batch after
 * the committed offset, runs it through the deployed revision, and writes the stream sinks'
 * outputs, the deliveries, the runs and the new offset in one transaction, fenced by the lease.
 */
export class Worker {
  private readonly pipelines = new Map<string, { pipeline: Promise<Pipeline>; at: number }>();
  private keysByStream = new Map<string, string[]>();
  private readonly states = new Map<string, PartitionState>();
  private readonly deployments = new Map<string, Deployment>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly o: WorkerOptions) {}

  /**
   * Whether a batch may commit while the next one is processed: only with a pool of connections
   * (on the embedded database there is one, and the second transaction would only wait).
   */
  private get overlapping(): boolean {
    return (this.o.db.client as { config?: { client?: unknown } }).config?.client === 'pg';
  }

  private get streams(): WorkflowStreams {
    return streamsOf(this.o.extensions);
  }

  spec(): JobSpec {
    return { name: WORKER_JOB, intervalMs: this.o.pollMs, leaseMs: this.o.leaseMs, keys: () => this.keys(), run: (context) => this.run(context) };
  }

  /** New messages wake the partition's holder at once (the poll is the fallback). */
  start(): void {
    const streams = this.o.extensions.all(workflowStreams)[0];
    if (!streams) return;
    this.unsubscribe = streams.onAppended((tenantId, uid, partitions) => {
      for (const key of this.keysByStream.get(`${tenantId}\u001f${uid}`) ?? []) {
        const partition = (JSON.parse(key) as [string, string, number])[2];
        if (partitions.includes(partition)) this.o.jobs.trigger(WORKER_JOB, key);
      }
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    for (const { pipeline } of this.pipelines.values()) await pipeline.then(stopPipeline, () => undefined);
    this.pipelines.clear();
  }

  /** Deploys, pauses and deletes change the keys: read them again now, on every instance. */
  refresh(): void {
    try {
      this.o.jobs.trigger(WORKER_JOB);
    } catch {
      // Not registered (maintenance mode): nothing runs anyway.
    }
  }

  async keys(): Promise<string[]> {
    const rows = (await this.o.db('workflows_workflows').where({ state: 'running' }).whereNotNull('input_stream').select('tenant_id', 'id', 'input_stream').orderBy(['tenant_id', 'id'])) as Array<{ tenant_id: string; id: string; input_stream: string }>;
    const keys: string[] = [];
    const byStream = new Map<string, string[]>();
    for (const row of rows) {
      const stream = await this.streams.stream(this.o.db, row.tenant_id, row.input_stream);
      if (!stream) continue;
      for (let p = 0; p < stream.partitions; p++) {
        const key = JSON.stringify([row.tenant_id, row.id, p]);
        keys.push(key);
        const s = `${row.tenant_id}\u001f${stream.uid}`;
        byStream.set(s, [...(byStream.get(s) ?? []), key]);
      }
    }
    this.keysByStream = byStream;
    return keys;
  }

  /** The runnable form of a revision, built once and reused for a while. */
  async pipeline(tenantId: string, workflowId: string, revision: number, definition: Definition): Promise<Pipeline> {
    const key = `${tenantId}\u001f${workflowId}\u001f${revision}`;
    const cached = this.pipelines.get(key);
    const now = performance.now();
    if (cached && now - cached.at < PIPELINE_TTL_MS) return cached.pipeline;
    const pipeline = buildPipeline(this.o.db, this.o.resolvers, tenantId, revision, definition);
    this.pipelines.set(key, { pipeline, at: now });
    pipeline.catch(() => this.pipelines.delete(key));
    if (cached) void cached.pipeline.then(stopPipeline, () => undefined);
    return pipeline;
  }

  private context(tenantId: string, workflowId: string, runId: string, signal: AbortSignal): StepContext {
    return {
      tenantId,
      workflowId,
      runId,
      signal,
      log: (level, message, fields) => void this.o.logs.write({ tenantId, level, source: 'workflows', message, fields: { workflow: workflowId, run: runId, ...(fields ?? {}) } }),
    };
  }

  /**
   * The deployed revision of a running workflow, or null when it is not running. The row is read
   * before every batch (a deploy switches at the next batch boundary); the revision's definition
   * and the input stream are kept while they stay the same.
   */
  private async deployment(tenantId: string, workflowId: string): Promise<Deployment | null> {
    const id = `${tenantId}\u001f${workflowId}`;
    const { db } = this.o;
    const row = (await db('workflows_workflows').where({ tenant_id: tenantId, id: workflowId }).first('state', 'deployed_revision', 'input_stream')) as { state: string; deployed_revision: number | null; input_stream: string | null } | undefined;
    if (!row || row.state !== 'running' || row.deployed_revision === null || row.input_stream === null) return null;
    const cached = this.deployments.get(id);
    const now = performance.now();
    if (cached && cached.revision === row.deployed_revision && cached.input.id === row.input_stream && now - cached.at < DEPLOYMENT_TTL_MS) return cached;
    const definition = await new WorkflowStore(db).revision(tenantId, workflowId, row.deployed_revision);
    const input = await this.streams.stream(db, tenantId, row.input_stream);
    if (!definition || !input) return null;
    const found = { at: now, revision: row.deployed_revision, definition, input };
    this.deployments.set(id, found);
    return found;
  }

  /**
   * One run works through the backlog of its partition: batch after batch while they come full,
   * for at most a slice of the lease (the runner renews the lease meanwhile; the fence in every
   * batch's transaction is what guarantees it). While a batch commits, the next one and the
   * workflow's row are read on another connection, so reading is off the critical path; a
   * deploy or pause read then takes effect at the next batch boundary, as before.
   */
  async run(context: JobContext): Promise<JobOutcome> {
    const until = performance.now() + Math.min(RUN_SLICE_MS, this.o.leaseMs / 4);
    let ahead: Promise<Ahead | undefined> | undefined;
    let outcome: JobOutcome;
    try {
      for (;;) {
        const done = await this.batch(context, ahead ? await ahead : undefined);
        if (done.outcome !== 'more' || context.signal.aborted || performance.now() >= until || !done.ahead) {
          void done.ahead?.catch(() => undefined);
          outcome = done.outcome;
          break;
        }
        ahead = done.ahead;
      }
    } catch (err) {
      // The batch still committing is waited for (its fate decides nothing now: state is read again).
      await this.settle(context.key).catch(() => undefined);
      throw err;
    }
    // A run ends only when its last transaction has.
    await this.settle(context.key);
    return outcome;
  }

  /** Waits for the partition's transaction in flight, if any, and accounts for it; a failure makes the state be read again. */
  private async settle(key: string): Promise<void> {
    const state = this.states.get(key);
    const flight = state?.inFlight;
    if (!state || !flight) return;
    state.inFlight = undefined;
    let written: Written;
    try {
      written = await flight.written;
    } catch (err) {
      this.states.delete(key);
      throw err;
    }
    state.retry = written.retry;
    await this.account(flight.prepared, written, state);
  }

  /** The deployment and the next batch of a partition, read while the previous batch committed. */
  private readAhead(tenantId: string, workflowId: string, input: WorkflowStream, partition: number, from: number, limit: number): Promise<Ahead | undefined> {
    const { db } = this.o;
    const read = Promise.all([this.deployment(tenantId, workflowId), this.streams.read(db, input, partition, from, limit)]).then(([deployment, batch]) => ({ deployment, uid: input.uid, from, batch }));
    // A failed read is read again in the ordinary way; never an unhandled rejection.
    return read.catch(() => undefined);
  }

  private async batch({ key, signal, lease }: JobContext, ahead: Ahead | undefined): Promise<{ outcome: JobOutcome; ahead?: Promise<Ahead | undefined> }> {
    const [tenantId, workflowId, partition] = JSON.parse(key) as [string, string, number];
    const { db, clock } = this.o;
    const deployment = ahead ? ahead.deployment : await this.deployment(tenantId, workflowId);
    if (!deployment) return { outcome: undefined };
    const { revision, definition, input } = deployment;
    const labels: Labels = { tenant: tenantId, workflow: workflowId, stream: input.id };
    const pipeline = await this.pipeline(tenantId, workflowId, revision, definition);

    // Offsets and retry state are ours while the lease is: read once per epoch, then kept.
    let state = this.states.get(key);
    if (!state || state.epoch !== lease.epoch) {
      state = { epoch: lease.epoch, committed: undefined, retry: undefined, lagAt: 0 };
      this.states.set(key, state);
    }
    state.committed ??= await this.streams.committed(db, input, workflowId, partition);
    // null is a known absence (no retry pending), not a reason to read again.
    if (state.retry === undefined) state.retry = ((await db('workflows_retries').where({ tenant_id: tenantId, workflow_id: workflowId, partition }).first()) as RetryRow | undefined) ?? null;
    const committed = state.committed;
    const retrying = state.retry && Number(state.retry.offset) >= committed ? state.retry : undefined;
    if (retrying && Number(retrying.offset) === committed && new Date(retrying.retry_at).getTime() > clock.now().getTime()) return { outcome: undefined };

    const limit = definition.batch_size ?? 100;
    // What was read ahead counts only if it starts where this partition stands, on the same input stream.
    const batch = ahead && ahead.from === committed && ahead.uid === input.uid ? ahead.batch.slice(0, limit) : await this.streams.read(db, input, partition, committed, limit);
    if (batch.length === 0) {
      this.o.metrics.position(labels, partition, 0, 0);
      return { outcome: undefined };
    }
    const outcomes: Outcome[] = [];
    for (const message of batch) {
      if (signal.aborted) return { outcome: undefined };
      const sameRun = retrying && Number(retrying.offset) === message.offset && retrying.revision === revision;
      const runId = sameRun ? retrying.run_id : newRunId();
      const startedAt = performance.now();
      try {
        const outputs = await runMessage(pipeline, toRuntime(message), this.context(tenantId, workflowId, runId, signal));
        outcomes.push({ message, runId, startedAt, outputs });
      } catch (err) {
        outcomes.push({ message, runId, startedAt, error: errorText(err) });
        break;
      }
    }
    if (signal.aborted) return { outcome: undefined };
    const failed = outcomes.at(-1)?.error !== undefined ? (outcomes.at(-1) as Outcome) : undefined;
    const priorAttempts = failed && retrying && Number(retrying.offset) === failed.message.offset && retrying.revision === revision ? retrying.attempts : 0;
    const attempts = priorAttempts + 1;
    const dead = failed !== undefined && attempts >= definition.on_error.max_attempts;

    // A full batch that went through leaves more behind: read it while this one commits.
    const full = !failed && batch.length >= limit;
    const readAhead = full ? this.readAhead(tenantId, workflowId, input, partition, (batch.at(-1) as WorkflowInputMessage).offset + 1, limit) : undefined;
    const prepared: Prepared = { key, lease: lease as Lease, labels, tenantId, workflowId, partition, revision, definition, pipeline, input, committed, batch, outcomes, failed, attempts, dead, retry: state.retry ?? null };

    if (full && this.overlapping && state.retry === null) {
      // Committed while the next batch is processed. Its transaction may start before the
      // previous one ends: it waits on the partition's rows, and its offset move is conditional
      // on the previous one's (expected = where that one leaves the offset), so if the previous
      // one rolls back this one cannot commit either. Order and exactly-once stay as they were.
      const written = this.commitBatch(prepared);
      written.catch(() => undefined);
      try {
        await this.settle(key);
      } catch (err) {
        await written.catch(() => undefined);
        void readAhead?.catch(() => undefined);
        throw err;
      }
      const current = this.states.get(key) ?? state;
      current.inFlight = { prepared, written };
      current.committed = (batch.at(-1) as WorkflowInputMessage).offset + 1;
      return readAhead ? { outcome: 'more', ahead: readAhead } : { outcome: 'more' };
    }

    let written: Written;
    try {
      await this.settle(key);
      written = await this.commitBatch(prepared);
    } catch (err) {
      // Read everything again next time: the lease, the offset or the retry row may have moved.
      this.states.delete(key);
      void readAhead?.catch(() => undefined);
      throw err;
    }
    state.committed = written.next;
    state.retry = written.retry;
    await this.account(prepared, written, state);
    // A full batch or a dead message leaves work behind: go on at once. A retry waits for its time.
    if (full) return readAhead ? { outcome: 'more', ahead: readAhead } : { outcome: 'more' };
    return { outcome: dead ? 'more' : undefined };
  }

  /** The batch's transaction, fenced by the lease. */
  private commitBatch(p: Prepared): Promise<Written> {
    return this.o.db.transaction(async (trx) => {
      if (!(await this.o.jobs.leases.fence(trx, p.lease))) throw new Error('the partition lease moved to another instance; this batch is left to it');
      return this.commit(trx, p);
    });
  }

  /** Metrics, logs and the partition's position once a batch has committed. */
  private async account(p: Prepared, written: Written, state: PartitionState): Promise<void> {
    const { labels, tenantId, workflowId, failed, dead, attempts, definition, revision, outcomes, batch, input, partition } = p;
    const end = performance.now();
    const ok = outcomes.filter((o) => o.error === undefined);
    this.o.metrics.processed(labels, ok.length + (dead ? 1 : 0), written.count);
    for (const o of ok) this.o.metrics.latency(labels, (end - o.startedAt) / 1000);
    if (failed) {
      this.o.metrics.failed(labels);
      if (dead) this.o.metrics.dead(labels);
      void this.o.logs.write({
        tenantId,
        level: dead ? 'error' : 'warn',
        source: 'workflows',
        message: dead ? `message is dead after ${attempts} attempts` : `attempt ${attempts} of ${definition.on_error.max_attempts} failed; retrying`,
        fields: { workflow: workflowId, run: failed.runId, message: failed.message.id, revision, error: failed.error },
      });
    }
    if (performance.now() - state.lagAt >= POSITION_EVERY_MS) {
      state.lagAt = performance.now();
      const next = batch[outcomes.length - (failed && !dead ? 1 : 0)];
      const streamEnd = await this.streams.end(this.o.db, input, partition).catch(() => undefined);
      this.o.metrics.position(labels, partition, streamEnd === undefined ? 0 : Math.max(0, streamEnd - written.next), next ? Math.max(0, (this.o.clock.now().getTime() - next.publishedAt.getTime()) / 1000) : 0);
    }
  }

  /**
   * A new run of a run's message on `revision`, in the caller's transaction (a request's): one
   * attempt, its outputs written to the stream sinks with the run, as new history.
   */
  async replay(trx: Knex.Transaction, tenantId: string, workflowId: string, original: { id: string; message_id: string }, revision: number, definition: Definition): Promise<RunOutcome> {
    const message = await this.streams.message(trx, tenantId, original.message_id);
    if (!message) throw new Error(`the message ${original.message_id} of run ${original.id} is gone (retention)`);
    const pipeline = await buildPipeline(trx, this.o.resolvers, tenantId, revision, definition);
    const id = newRunId();
    const outcome: Outcome = { message, runId: id, startedAt: performance.now() };
    try {
      outcome.outputs = await runMessage(pipeline, toRuntime(message), this.context(tenantId, workflowId, id, new AbortController().signal));
    } catch (err) {
      outcome.error = errorText(err);
    } finally {
      await stopPipeline(pipeline);
    }
    const now = this.o.clock.now();
    const outputs: string[] = [];
    if (outcome.error === undefined) {
      for (const sink of pipeline.sinks) {
        if (sink.kind !== 'stream') continue;
        const appended = await this.streams.publish(trx, sink.stream, (outcome.outputs ?? []).map((m) => this.output(m, sink.key, message.id)));
        outputs.push(...appended.map((a) => a.id));
      }
    }
    const status = outcome.error === undefined ? 'processed' : 'failed';
    await this.streams.recordDeliveries(trx, [{ tenantId, messageId: message.id, workflow: workflowId, revision, runId: id, status, error: outcome.error ?? null, outputs, at: now, publishedAt: message.publishedAt }]);
    await rollUp(trx, { tenantId, workflowId, at: now }, [{ status, first: true, latencyMs: status === 'processed' ? now.getTime() - message.publishedAt.getTime() : null }]);
    const run: RunOutcome = { id, workflow: workflowId, revision, message_id: message.id, status, error: outcome.error ?? null, outputs, replay_of: original.id };
    await new RunStore(trx).record(tenantId, [run], now);
    return run;
  }

  /** An output as a stream sink writes it: the value (or bytes), the key, and the input it came from. */
  private output(m: RuntimeMessage, key: string | undefined, source: string): WorkflowOutputMessage {
    const out: WorkflowOutputMessage = { key: key ?? m.key, headers: { ...m.headers, [SOURCE_HEADER]: source } };
    if (m.value !== undefined) out.value = m.value;
    else {
      out.body = m.body ?? new Uint8Array();
      if (m.content_type !== undefined) out.contentType = m.content_type;
    }
    return out;
  }

  /** The batch's effects, in the caller's transaction; the number of messages written to stream sinks. */
  private async commit(trx: Knex.Transaction, b: Prepared): Promise<Written> {
    const now = this.o.clock.now();
    const ok = b.outcomes.filter((o) => o.error === undefined);
    const outputIds = new Map<Outcome, string[]>(ok.map((o) => [o, []]));
    let written = 0;
    for (const sink of b.pipeline.sinks) {
      if (sink.kind !== 'stream') continue;
      const owners: Outcome[] = [];
      const messages = ok.flatMap((o) =>
        (o.outputs ?? []).map((m) => {
          owners.push(o);
          return this.output(m, sink.key, o.message.id);
        }),
      );
      const appended = await this.streams.publish(trx, sink.stream, messages);
      appended.forEach((a, i) => outputIds.get(owners[i] as Outcome)?.push(a.id));
      written += appended.length;
    }
    const deliveries: WorkflowDelivery[] = [];
    const runs: RunOutcome[] = [];
    for (const o of ok) {
      const outputs = outputIds.get(o) ?? [];
      deliveries.push({ tenantId: b.tenantId, messageId: o.message.id, workflow: b.workflowId, revision: b.revision, runId: o.runId, status: 'processed', error: null, outputs, at: now, publishedAt: o.message.publishedAt });
      runs.push({ id: o.runId, workflow: b.workflowId, revision: b.revision, message_id: o.message.id, status: 'processed', error: null, outputs });
    }
    const retries = trx('workflows_retries').where({ tenant_id: b.tenantId, workflow_id: b.workflowId, partition: b.partition });
    let retry: RetryRow | null = b.retry;
    let next = ok.length > 0 ? (ok.at(-1) as Outcome).message.offset + 1 : b.committed;
    if (b.failed) {
      const f = b.failed;
      const status = b.dead ? 'dead' : 'failed';
      const outputs: string[] = [];
      if (b.dead && b.definition.on_error.dead_letter_stream) {
        const dlq = await this.streams.stream(trx, b.tenantId, b.definition.on_error.dead_letter_stream);
        if (dlq) {
          const m = f.message;
          const copied = await this.streams.publish(trx, dlq, [{ key: m.key, headers: { ...m.headers, 'x-dead-letter-of': m.id, 'x-dead-letter-workflow': b.workflowId, 'x-dead-letter-error': (f.error ?? '').slice(0, 500) }, body: m.body, contentType: m.contentType }]);
          outputs.push(...copied.map((c) => c.id));
        }
      }
      deliveries.push({ tenantId: b.tenantId, messageId: f.message.id, workflow: b.workflowId, revision: b.revision, runId: f.runId, status, error: f.error ?? null, outputs, at: now, publishedAt: f.message.publishedAt });
      runs.push({ id: f.runId, workflow: b.workflowId, revision: b.revision, message_id: f.message.id, status, error: f.error ?? null, outputs });
      if (b.dead) {
        next = f.message.offset + 1;
        if (retry) await retries.clone().delete();
        retry = null;
      } else {
        const retryAt = new Date(now.getTime() + backoffMs(b.definition.on_error, b.attempts));
        retry = { offset: f.message.offset, attempts: b.attempts, run_id: f.runId, revision: b.revision, retry_at: retryAt };
        await trx('workflows_retries')
          .insert({ tenant_id: b.tenantId, workflow_id: b.workflowId, partition: b.partition, offset: f.message.offset, attempts: b.attempts, run_id: f.runId, revision: b.revision, retry_at: retryAt })
          .onConflict(['tenant_id', 'workflow_id', 'partition'])
          .merge(['offset', 'attempts', 'run_id', 'revision', 'retry_at']);
      }
    } else if (retry) {
      await retries.clone().delete();
      retry = null;
    }
    await new RunStore(trx).record(b.tenantId, runs, now);
    // The deliveries ride with the offset commit (one statement); without a move they go alone.
    if (next === b.committed) await this.streams.recordDeliveries(trx, deliveries);
    else if (!(await this.streams.commit(trx, b.input, b.workflowId, b.partition, b.committed, next, deliveries))) {
      throw new Error('the committed offset moved under this batch (a commit through the API?); reading again');
    }
    // The dashboard's hourly counters move with the deliveries, in this transaction.
    const retried = b.retry?.run_id;
    const counted: CountedAttempt[] = ok.map((o) => ({ status: 'processed', first: o.runId !== retried, latencyMs: now.getTime() - o.message.publishedAt.getTime() }));
    if (b.failed) counted.push({ status: b.dead ? 'dead' : 'failed', first: b.failed.runId !== retried, latencyMs: null });
    await rollUp(trx, { tenantId: b.tenantId, workflowId: b.workflowId, at: now }, counted);
    return { count: written, next, retry };
  }
}
