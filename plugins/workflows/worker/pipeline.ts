import type { Knex } from 'knex';
import type { ComponentRuntime, RuntimeMessage, StepContext } from '../../components/contract.js';
import type { WorkflowStream } from '../contract.js';
import type { Definition } from '../definition.js';
import { STREAM_PUBLISH } from '../types/sinks.js';
import { resolveStep, streamsOf, type Resolvers } from '../validate.js';

/**
 * What a type's create() receives. Beyond the contract's fields it carries the connection to use
 * while building (the workflows' own types read it: inside a request's transaction on the
 * embedded database, the only connection is that transaction's).
 */
function where(tenantId: string, componentId: string | undefined, db: Knex | Knex.Transaction): { tenantId: string; componentId?: string; db: Knex | Knex.Transaction } {
  return { tenantId, ...(componentId ? { componentId } : {}), db };
}

/** A sink the worker writes in its transaction, or one that delivers outside the database. */
export type Sink = { kind: 'stream'; stream: WorkflowStream; key?: string } | { kind: 'external'; name: string; runtime: ComponentRuntime; componentId?: string };

/** A revision made runnable: its processors' and sinks' runtimes. */
export interface Pipeline {
  revision: number;
  definition: Definition;
  steps: Array<{ name: string; runtime: ComponentRuntime; componentId?: string }>;
  sinks: Sink[];
}

export async function buildPipeline(db: Knex | Knex.Transaction, resolvers: Resolvers, tenantId: string, revision: number, definition: Definition): Promise<Pipeline> {
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
    sinks.push({ kind: 'external', name: step.type.name, runtime, ...(step.componentId ? { componentId: step.componentId } : {}) });
  }
  return { revision, definition, steps, sinks };
}

export async function stopPipeline(pipeline: Pipeline): Promise<void> {
  for (const r of [...pipeline.steps.map((s) => s.runtime), ...pipeline.sinks.flatMap((s) => (s.kind === 'external' ? [s.runtime] : []))]) await r.stop?.().catch(() => undefined);
}

/**
 * Runs one message through the processors, then delivers the results to the external sinks
 * (at-least-once: before the offset commit; a sink is handed each message's id as its
 * idempotency key). Returns what the stream sinks must write.
 */
export async function runMessage(pipeline: Pipeline, input: RuntimeMessage, context: StepContext): Promise<RuntimeMessage[]> {
  let current: RuntimeMessage[] = [input];
  for (const step of pipeline.steps) {
    const next: RuntimeMessage[] = [];
    const stepContext = step.componentId ? { ...context, componentId: step.componentId } : context;
    for (const m of current) next.push(...(await (step.runtime.process as NonNullable<ComponentRuntime['process']>)(m, stepContext)));
    current = next;
  }
  for (const sink of pipeline.sinks) {
    if (sink.kind !== 'external') continue;
    const sinkContext = sink.componentId ? { ...context, componentId: sink.componentId } : context;
    for (const m of current) await (sink.runtime.deliver as NonNullable<ComponentRuntime['deliver']>)(m, sinkContext);
  }
  return current;
}
