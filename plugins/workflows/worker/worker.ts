import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { JobContext, JobOutcome, JobSpec, Lease } from '../../../kernel/plugin/api.js';
import { workflowStreams, type WorkflowInputMessage, type WorkflowStream, type WorkflowStreams } from '../contract.js';
import type { Definition } from '../definition.js';
import type { Labels } from '../metrics.js';
import type { RunOutcome } from '../store.js';
import { streamsOf } from '../validate.js';
import { WorkerStore } from '../worker-store.js';
import { account } from './account.js';
import { commitBatch, type Prepared, type Written } from './commit.js';
import { combinable } from './commit-combined.js';
import { Deployments, type Deployment } from './deployments.js';
import { RunHealth } from './health.js';
import { stoppedComponents } from './held.js';
import type { WorkerOptions } from './options.js';
import { errorText, type Outcome } from './outcome.js';
import { PartitionStates } from './partitions.js';
import type { Pipeline } from './pipeline.js';
import { processBatch } from './process.js';
import { replay } from './replay.js';

export type { WorkerOptions } from './options.js';
export { SOURCE_HEADER } from './outcome.js';

export const WORKER_JOB = 'workflows.worker';

/** The longest one run keeps working through a backlog before it hands back to the job runner. */
const RUN_SLICE_MS = 2000;

/** The next batch of a partition and the workflow's deployment, read while the previous batch committed. */
interface Ahead {
  deployment: Deployment | null;
  /** The input stream it was read from (a deploy may have changed it). */
  uid: string;
  from: number;
  batch: WorkflowInputMessage[];
  /** The partition's count of appends (Worker.appends) when the read began. */
  appendsSeen: number;
}

/**
 * The workflow workers: one keyed job whose keys are (tenant, workflow, partition) of every
 * running workflow, so the instances share the partitions by lease. A run reads a batch after
 * the committed offset, runs it through the deployed revision, and writes the stream sinks'
 * outputs, the deliveries, the runs and the new offset in one transaction, fenced by the lease.
 *
 * This file is the run loop; the pieces it drives are beside it: deployments.ts (what runs),
 * process.ts (running a batch), commit.ts (its transaction), account.ts (metrics and health
 * afterwards), partitions.ts (what a lease holder keeps), replay.ts (a run again, on request).
 */
export class Worker {
  private keysByStream = new Map<string, string[]>();
  /**
   * Appends announced per key (tenant, workflow, partition) since this process started: a batch
   * during which the count moved has more behind it, though it did not come full.
   */
  private readonly appends = new Map<string, number>();
  private readonly states: PartitionStates;
  private readonly deployments: Deployments;
  private unsubscribe: (() => void) | undefined;
  private readonly health: RunHealth;

  constructor(private readonly o: WorkerOptions) {
    this.health = new RunHealth({ db: o.db, logs: o.logs, clock: o.clock, components: o.resolvers.components });
    this.deployments = new Deployments(o, () => this.streams, this.health);
    this.states = new PartitionStates((p, written, state) => account(o, this.streams, this.health, p, written, state));
  }

  /**
   * Whether any batch may commit while the next one is processed: with a pool of connections
   * (on the embedded database there is one, and a second transaction would only wait).
   */
  private get overlapping(): boolean {
    return (this.o.db.client as { config?: { client?: unknown } }).config?.client === 'pg';
  }

  private get streams(): WorkflowStreams {
    return streamsOf(this.o.extensions);
  }

  spec(): JobSpec {
    return {
      name: WORKER_JOB,
      intervalMs: this.o.pollMs,
      leaseMs: this.o.leaseMs,
      keys: () => this.keys(),
      run: (context) => this.run(context),
    };
  }

  /** New messages wake the partition's holder at once (the poll is the fallback). */
  start(): void {
    const streams = this.o.extensions.all(workflowStreams)[0];
    if (!streams) return;
    this.unsubscribe = streams.onAppended((tenantId, uid, partitions) => {
      for (const key of this.keysByStream.get(`${tenantId}\u001f${uid}`) ?? []) {
        const partition = (JSON.parse(key) as [string, string, number])[2];
        if (!partitions.includes(partition)) continue;
        this.appends.set(key, (this.appends.get(key) ?? 0) + 1);
        this.o.jobs.trigger(WORKER_JOB, key);
      }
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.deployments.stop();
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
    const rows = await new WorkerStore(this.o.db).runningInputs();
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
  pipeline(tenantId: string, workflowId: string, revision: number, definition: Definition): Promise<Pipeline> {
    return this.deployments.pipeline(tenantId, workflowId, revision, definition);
  }

  /**
   * A new run of a run's message on `revision`, in the caller's transaction (a request's): one
   * attempt, its outputs written to the stream sinks with the run, as new history.
   */
  replay(
    trx: Knex.Transaction,
    tenantId: string,
    workflowId: string,
    original: { id: string; message_id: string },
    revision: number,
    definition: Definition,
  ): Promise<RunOutcome> {
    return replay(this.o, this.streams, trx, tenantId, workflowId, original, revision, definition);
  }

  /**
   * One run works through the backlog of its partition: batch after batch while they come full
   * or messages keep arriving meanwhile (a steady flow goes on in one run, each batch's commit
   * overlapping the next batch rather than the run ending and starting again after every commit),
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
      await this.states.settle(context.key).catch(() => undefined);
      throw err;
    }
    // A run ends only when its last transaction has.
    await this.states.settle(context.key);
    return outcome;
  }

  /** The deployment and the next batch of a partition, read while the previous batch committed. */
  private readAhead(
    tenantId: string,
    workflowId: string,
    input: WorkflowStream,
    partition: number,
    from: number,
    limit: number,
  ): Promise<Ahead | undefined> {
    const { db } = this.o;
    const appendsSeen = this.appends.get(JSON.stringify([tenantId, workflowId, partition])) ?? 0;
    const read = Promise.all([
      this.deployments.deployment(tenantId, workflowId),
      this.streams.read(db, input, partition, from, limit),
    ]).then(([deployment, batch]) => ({ deployment, uid: input.uid, from, batch, appendsSeen }));
    // A failed read is read again in the ordinary way; never an unhandled rejection.
    return read.catch(() => undefined);
  }

  /**
   * One batch of a partition: what is deployed, where the partition stands (and whether a retry
   * is due), the messages processed, then committed — overlapped with the next batch when it can.
   */
  private async batch(
    { key, signal, lease }: JobContext,
    ahead: Ahead | undefined,
  ): Promise<{ outcome: JobOutcome; ahead?: Promise<Ahead | undefined> }> {
    const [tenantId, workflowId, partition] = JSON.parse(key) as [string, string, number];
    const { db, clock } = this.o;
    const deployment = ahead ? ahead.deployment : await this.deployments.deployment(tenantId, workflowId);
    if (!deployment) return { outcome: undefined };
    const { revision, definition, input } = deployment;
    const labels: Labels = { tenant: tenantId, workflow: workflowId, stream: input.id };
    // A stopped processor or sink holds the workflow's messages (held.ts): nothing is claimed.
    if ((await stoppedComponents(this.o.resolvers.components, db, tenantId, definition)).length > 0)
      return { outcome: undefined };
    let pipeline: Pipeline;
    try {
      pipeline = await this.deployments.pipeline(tenantId, workflowId, revision, definition);
    } catch (err) {
      // Not only on stderr: the workflow shows it and /logs has it (the runner retries with backoff).
      await this.health
        .workflow(tenantId, workflowId, `cannot build its steps: ${errorText(err)}`)
        .catch(() => undefined);
      throw err;
    }

    // Offsets and retry state are ours while the lease is: read once per epoch, then kept.
    const state = this.states.of(key, lease.epoch);
    state.committed ??= await this.streams.committed(db, input, workflowId, partition);
    // null is a known absence (no retry pending), not a reason to read again.
    if (state.retry === undefined) state.retry = await new WorkerStore(db).retry(tenantId, workflowId, partition);
    const committed = state.committed;
    const retrying = state.retry && Number(state.retry.offset) >= committed ? state.retry : undefined;
    if (
      retrying &&
      Number(retrying.offset) === committed &&
      new Date(retrying.retry_at).getTime() > clock.now().getTime()
    )
      return { outcome: undefined };

    const limit = definition.batch_size ?? 100;
    // What was read ahead counts only if it starts where this partition stands, on the same input stream.
    const claimedAt = performance.now();
    const fromAhead = ahead && ahead.from === committed && ahead.uid === input.uid ? ahead : undefined;
    const appendsSeen = fromAhead ? fromAhead.appendsSeen : (this.appends.get(key) ?? 0);
    const batch = fromAhead
      ? fromAhead.batch.slice(0, limit)
      : await this.streams.read(db, input, partition, committed, limit);
    if (batch.length > 0) this.o.timings?.('claim', (performance.now() - claimedAt) / 1000, batch.length);
    if (batch.length === 0) {
      this.o.metrics.position(labels, partition, 0, 0);
      return { outcome: undefined };
    }
    const outcomes = await processBatch(this.o, pipeline, batch, retrying ?? undefined, {
      tenantId,
      workflowId,
      revision,
      signal,
    });
    if (signal.aborted) return { outcome: undefined };
    const failed = outcomes.at(-1)?.error !== undefined ? (outcomes.at(-1) as Outcome) : undefined;
    const priorAttempts =
      failed && retrying && Number(retrying.offset) === failed.message.offset && retrying.revision === revision
        ? retrying.attempts
        : 0;
    const attempts = priorAttempts + 1;
    const dead = failed !== undefined && attempts >= definition.on_error.max_attempts;

    // A full batch that went through leaves more behind, and so does one during which messages
    // were appended to the partition: read them while this one commits.
    const full = !failed && batch.length >= limit;
    const more = !failed && (full || (this.appends.get(key) ?? 0) !== appendsSeen);
    const readAhead = more
      ? this.readAhead(tenantId, workflowId, input, partition, (batch.at(-1) as WorkflowInputMessage).offset + 1, limit)
      : undefined;
    const prepared: Prepared = {
      key,
      lease: lease as Lease,
      labels,
      tenantId,
      workflowId,
      partition,
      revision,
      definition,
      pipeline,
      input,
      committed,
      batch,
      outcomes,
      failed,
      attempts,
      dead,
      retry: state.retry ?? null,
    };

    // With a pool of connections any batch commits while the next is processed; on the embedded
    // database (one connection) a batch that commits as one statement does (commit-combined.ts):
    // it holds the connection for that statement alone, not across a transaction's awaits, so
    // the database's work on this thread overlaps the next batch's in the sandbox's threads.
    if (more && state.retry === null && (this.overlapping || combinable(this.streams, prepared))) {
      // Committed while the next batch is processed. Its transaction may start before the
      // previous one ends: it waits on the partition's rows, and its offset move is conditional
      // on the previous one's (expected = where that one leaves the offset), so if the previous
      // one rolls back this one cannot commit either. Order and exactly-once stay as they were.
      const written = commitBatch(this.o, this.streams, this.health, prepared);
      written.catch(() => undefined);
      try {
        await this.states.settle(key);
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
      await this.states.settle(key);
      written = await commitBatch(this.o, this.streams, this.health, prepared);
    } catch (err) {
      // Read everything again next time: the lease, the offset or the retry row may have moved.
      this.states.forget(key);
      void readAhead?.catch(() => undefined);
      throw err;
    }
    state.committed = written.next;
    state.retry = written.retry;
    await account(this.o, this.streams, this.health, prepared, written, state);
    // A full batch, one during which more arrived, or a dead message leaves work behind: go on at
    // once. A retry waits for its time.
    if (more) return readAhead ? { outcome: 'more', ahead: readAhead } : { outcome: 'more' };
    return { outcome: dead ? 'more' : undefined };
  }
}
