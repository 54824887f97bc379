import type { Knex } from 'knex';
import type { ComponentRuntime, RuntimeMessage, StepContext } from '../../components/contract.js';
import type { WorkflowStream } from '../contract.js';
import { resolveVariables, variableSource } from '../../variables/contract.js';
import type { Definition } from '../definition.js';
import { STREAM_PUBLISH } from '../types/sinks.js';
import { resolveStep, streamsOf, type Resolvers } from '../validate.js';
import { outputScope, withOutputIds } from './output-id.js';

/**
 * What a type's create() receives. Beyond the contract's fields it carries the connection to use
 * while building (the workflows' own types read it: inside a request's transaction on the
 * embedded database, the only connection is that transaction's).
 */
function where(
  tenantId: string,
  componentId: string | undefined,
  db: Knex | Knex.Transaction,
): { tenantId: string; componentId?: string; db: Knex | Knex.Transaction } {
  return { tenantId, ...(componentId ? { componentId } : {}), db };
}

/** A sink the worker writes in its transaction, or one that delivers outside the database. */
export type Sink =
  | { kind: 'stream'; stream: WorkflowStream; key?: string }
  | { kind: 'external'; name: string; runtime: ComponentRuntime; componentId?: string };

/** A revision made runnable: its processors' and sinks' runtimes. */
export interface Pipeline {
  revision: number;
  definition: Definition;
  steps: Array<{ name: string; runtime: ComponentRuntime; componentId?: string }>;
  sinks: Sink[];
}

export async function buildPipeline(
  db: Knex | Knex.Transaction,
  resolvers: Resolvers,
  tenantId: string,
  revision: number,
  stored: Definition,
): Promise<Pipeline> {
  // `${var:NAME}` in step and sink configs: the tenant's own values, read as the pipeline is built.
  const definition = await resolveVariables(resolvers.extensions.all(variableSource), db, tenantId, stored);
  const streams = streamsOf(resolvers.extensions);
  const steps: Pipeline['steps'] = [];
  for (const [i, ref] of definition.steps.entries()) {
    const step = await resolveStep(db, resolvers, tenantId, ref, `/steps/${i}`, 'processor');
    const runtime = (await step.type.create?.(step.config, where(tenantId, step.componentId, db))) ?? {};
    if (!runtime.process) throw new Error(`component type ${step.type.name} gives no processor`);
    steps.push({ name: step.type.name, runtime, ...(step.componentId ? { componentId: step.componentId } : {}) });
  }
  const sinks: Sink[] = [];
  for (const [i, ref] of definition.sinks.entries()) {
    const step = await resolveStep(db, resolvers, tenantId, ref, `/sinks/${i}`, 'sink');
    if (step.type.name === STREAM_PUBLISH) {
      const stream = await streams.stream(db, tenantId, String(step.config.stream));
      if (!stream) throw new Error(`sink stream "${String(step.config.stream)}" no longer exists`);
      sinks.push({ kind: 'stream', stream, ...(typeof step.config.key === 'string' ? { key: step.config.key } : {}) });
      continue;
    }
    const runtime = (await step.type.create?.(step.config, where(tenantId, step.componentId, db))) ?? {};
    if (!runtime.deliver) throw new Error(`component type ${step.type.name} gives no sink`);
    sinks.push({
      kind: 'external',
      name: step.type.name,
      runtime,
      ...(step.componentId ? { componentId: step.componentId } : {}),
    });
  }
  return { revision, definition, steps, sinks };
}

/** A step's or sink's failure, naming the component it ran as (when it was one). */
export class StepFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly componentId: string | undefined,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

async function asStep<T>(componentId: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw componentId ? new StepFailure(err, componentId) : err;
  }
}

export async function stopPipeline(pipeline: Pipeline): Promise<void> {
  for (const r of [
    ...pipeline.steps.map((s) => s.runtime),
    ...pipeline.sinks.flatMap((s) => (s.kind === 'external' ? [s.runtime] : [])),
  ])
    await r.stop?.().catch(() => undefined);
}

/**
 * Runs one message through the processors, then delivers the results to the external sinks
 * (at-least-once: before the offset commit). Each output gets its own id (output-id.ts), the same
 * on every attempt at this input, which the sinks carry as message id and idempotency key.
 * `scope` names a deliberate new run's outputs afresh (a replayed run passes its run id).
 * Returns what the stream sinks must write.
 */
export async function runMessage(
  pipeline: Pipeline,
  input: RuntimeMessage,
  context: StepContext,
  scope = outputScope(context.tenantId, context.workflowId, input.id),
): Promise<RuntimeMessage[]> {
  let current: RuntimeMessage[] = [input];
  for (const step of pipeline.steps) {
    const next: RuntimeMessage[] = [];
    const stepContext = step.componentId ? { ...context, componentId: step.componentId } : context;
    for (const m of current)
      next.push(
        ...(await asStep(step.componentId, () =>
          (step.runtime.process as NonNullable<ComponentRuntime['process']>)(m, stepContext),
        )),
      );
    current = next;
  }
  current = withOutputIds(current, scope);
  for (const sink of pipeline.sinks) {
    if (sink.kind !== 'external') continue;
    const sinkContext = sink.componentId ? { ...context, componentId: sink.componentId } : context;
    for (const m of current)
      await asStep(sink.componentId, () =>
        (sink.runtime.deliver as NonNullable<ComponentRuntime['deliver']>)(m, sinkContext),
      );
  }
  return current;
}

/**
 * How many messages of a batch are in the processors at once: enough that a script step hands
 * the sandbox a queue it sends to its workers several runs at a time (sandbox/pool.ts), few
 * enough that a failure early in a batch wastes little.
 */
const PROCESS_WINDOW = 64;
/**
 * How many deliveries one external sink has in flight at once while a batch is delivered: a
 * batch's worth, so a broker's acknowledgements come back together and its publishes leave in a
 * few writes rather than one round trip per 16 (a failure redelivers at most this many again, with
 * the same ids: at-least-once as before).
 */
const SINK_WINDOW = 512;

/** What running a batch came to: each message's outputs up to the first that failed (if one did). */
export interface BatchRun {
  outputs: RuntimeMessage[][];
  failed?: { index: number; error: unknown };
  /** Seconds until the processors were done, then until the external sinks were (deliveries overlap processing). */
  processSeconds: number;
  sinkSeconds: number;
}

/**
 * Runs a batch: every message through the processors in order (stopping at the first that
 * fails, or when `signal` aborts); each external sink gets a message's outputs as soon as it and
 * every message before it went through, pipelined (up to SINK_WINDOW in flight, issued in
 * order), so delivering overlaps processing. A delivery that fails fails its message: the batch
 * keeps only the messages before it (those after it may have been delivered already; they are
 * delivered again with the same ids, at-least-once as before).
 */
export async function runBatch(
  pipeline: Pipeline,
  inputs: readonly RuntimeMessage[],
  contextOf: (index: number) => StepContext,
  signal: AbortSignal,
): Promise<BatchRun> {
  const startedAt = performance.now();
  const through = async (input: RuntimeMessage, context: StepContext): Promise<RuntimeMessage[]> => {
    let current: RuntimeMessage[] = [input];
    for (const step of pipeline.steps) {
      const next: RuntimeMessage[] = [];
      const stepContext = step.componentId ? { ...context, componentId: step.componentId } : context;
      const process = step.runtime.process as NonNullable<ComponentRuntime['process']>;
      // asStep: a failure names the component it came from (its health turns failed).
      for (const m of current) next.push(...(await asStep(step.componentId, () => process(m, stepContext))));
      current = next;
    }
    return withOutputIds(current, outputScope(context.tenantId, context.workflowId, input.id));
  };
  // Messages go through the processors PROCESS_WINDOW at a time (a script step then keeps the
  // sandbox's workers busy together); results are taken in order, up to the first failure.
  const settled: Array<Promise<{ ok: RuntimeMessage[] } | { error: unknown }>> = [];
  let started = 0;
  const startNext = () => {
    const index = started++;
    settled[index] = through(inputs[index] as RuntimeMessage, contextOf(index)).then(
      (ok) => ({ ok }),
      (error: unknown) => ({ error }),
    );
  };
  const feeds = pipeline.sinks.flatMap((sink) => (sink.kind === 'external' ? [new SinkFeed(sink, contextOf)] : []));
  const outputs: RuntimeMessage[][] = [];
  let failed: BatchRun['failed'];
  for (let index = 0; index < inputs.length; index++) {
    while (started < inputs.length && started < index + PROCESS_WINDOW && !signal.aborted) startNext();
    if (index >= started) break;
    const result = await (settled[index] as Promise<{ ok: RuntimeMessage[] } | { error: unknown }>);
    if ('error' in result) {
      failed = { index, error: result.error };
      break;
    }
    outputs.push(result.ok);
    for (const feed of feeds) await feed.add(index, result.ok);
    // A failed delivery ends the batch at its message: nothing after it needs processing.
    if (feeds.some((feed) => feed.failure)) break;
  }
  // Whatever was started after a failure still ends before the batch does (never left running).
  await Promise.all(settled.slice(outputs.length));
  const processedAt = performance.now();
  for (const feed of feeds) {
    const failure = await feed.drained();
    if (failure && failure.index < outputs.length) {
      outputs.length = failure.index;
      failed = failure;
    }
  }
  return {
    outputs,
    ...(failed ? { failed } : {}),
    processSeconds: (processedAt - startedAt) / 1000,
    sinkSeconds: (performance.now() - processedAt) / 1000,
  };
}

/** One external sink's deliveries of a batch: issued in order, up to SINK_WINDOW in flight. */
class SinkFeed {
  private inFlight = 0;
  /** Woken when a delivery settles (the window has room, or the last one ended). */
  private settled: (() => void) | undefined;
  /** The earliest message whose delivery failed. */
  failure: { index: number; error: unknown } | undefined;

  constructor(
    private readonly sink: Extract<Sink, { kind: 'external' }>,
    private readonly contextOf: (index: number) => StepContext,
  ) {}

  /** Issues the deliveries of message `index`'s outputs, waiting while the window is full. */
  async add(index: number, messages: readonly RuntimeMessage[]): Promise<void> {
    if (this.failure) return;
    const { sink } = this;
    const deliver = sink.runtime.deliver as NonNullable<ComponentRuntime['deliver']>;
    const context = this.contextOf(index);
    const sinkContext = sink.componentId ? { ...context, componentId: sink.componentId } : context;
    for (const m of messages) {
      this.inFlight++;
      void asStep(sink.componentId, () => deliver(m, sinkContext)).then(
        () => this.done(),
        (error: unknown) => {
          if (!this.failure || index < this.failure.index) this.failure = { index, error };
          this.done();
        },
      );
      // A counter and one waiter, not a race over every promise in flight (that is O(window) per delivery).
      while (this.inFlight >= SINK_WINDOW) await new Promise<void>((resolve) => (this.settled = resolve));
    }
  }

  /** Waits for every delivery issued; the earliest failure, if one failed. */
  async drained(): Promise<{ index: number; error: unknown } | undefined> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => (this.settled = resolve));
    return this.failure;
  }

  private done(): void {
    this.inFlight--;
    const wake = this.settled;
    this.settled = undefined;
    wake?.();
  }
}
