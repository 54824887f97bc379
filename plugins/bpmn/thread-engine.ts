/* Runs inside an engine thread (a worker_threads Worker started by main-engine-pool.ts). */
import { parentPort } from 'node:worker_threads';
import type { DefinitionMeta } from './definitions.js';
import { engineContext, type EngineContext } from './context.js';
import { InstanceEngine, type Advance, type Input, type InstanceRef } from './instance-engine.js';
import { bpmnLibraries } from './libraries.js';

/**
 * An engine thread: runs bpmn-engine for instances of threadable definitions (see context.ts),
 * so the engine's CPU and garbage stay off the main thread, which serves HTTP and the database.
 * It only computes: given a saved state (or an engine it kept from its own last advance of the
 * instance) and an input, it runs to the next wait state and answers the advance with the engine
 * state as JSON text. It never touches the database; whatever it holds is a cache of rows the
 * main thread committed, so a thread that dies loses nothing.
 */

export interface AdvanceRequest {
  id: number;
  instance: InstanceRef;
  definition: { id: string; xml: string; meta: DefinitionMeta };
  input: Input;
  variablesOfFirst: boolean;
  /** Recover from this saved state (JSON text or object; undefined: a fresh instance), or use the engine kept at `revision`. */
  from: { kind: 'state'; state: unknown; variables: Record<string, unknown> } | { kind: 'kept'; revision: number };
  /** The revision the instance has once the advance commits: the kept engine's tag. */
  keepAs: number;
  maxSteps: number;
  retries: number;
  keep: number;
}

export type AdvanceReply =
  | { id: number; kind: 'done'; advance: Advance }
  | { id: number; kind: 'missing' }
  | { id: number; kind: 'failed'; message: string };

export type ThreadMessage =
  | AdvanceReply
  | {
      kind: 'log';
      tenantId: string;
      level: 'info' | 'warn' | 'error';
      message: string;
      fields: Record<string, unknown>;
    };

const contexts = new Map<string, Promise<EngineContext>>();
/** Engines kept after an advance, by instance: valid only for the revision they produced. */
const kept = new Map<string, { revision: number; engine: InstanceEngine }>();
const port = parentPort!;

function contextOf(definition: AdvanceRequest['definition']): Promise<EngineContext> {
  let context = contexts.get(definition.id);
  if (!context) {
    context = engineContext(definition.xml, definition.meta.process_id);
    contexts.set(definition.id, context);
    context.catch(() => contexts.delete(definition.id));
  }
  return context;
}

async function advance(request: AdvanceRequest): Promise<AdvanceReply> {
  const { instance } = request;
  let engine: InstanceEngine;
  const previous = kept.get(instance.id);
  // Taken out either way: an engine serves one advance, and a failed one must not be reused.
  kept.delete(instance.id);
  if (request.from.kind === 'kept') {
    if (!previous || previous.revision !== request.from.revision) return { id: request.id, kind: 'missing' };
    engine = previous.engine;
  } else {
    await bpmnLibraries();
    const context = await contextOf(request.definition);
    const state = typeof request.from.state === 'string' ? JSON.parse(request.from.state) : request.from.state;
    const deps = {
      // Threadable definitions have neither scripts nor service tasks (context.ts).
      sandbox: () => undefined,
      publishers: () => [],
      maxSteps: request.maxSteps,
      retries: request.retries,
      log: (level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>) =>
        port.postMessage({ kind: 'log', tenantId: instance.tenantId, level, message, fields } satisfies ThreadMessage),
    };
    engine = new InstanceEngine(deps, request.definition.meta, context.source, instance, state, request.from.variables);
  }
  const result = await engine.advance(request.input, undefined, { variablesOfFirst: request.variablesOfFirst });
  if (result.state === 'active' && result.engineState !== undefined && request.keep > 0) {
    kept.set(instance.id, { revision: request.keepAs, engine });
    if (kept.size > request.keep) kept.delete(kept.keys().next().value as string);
  }
  // The main thread stores the state as JSON text: made here, off its CPU.
  if (result.engineState !== undefined && result.engineState !== null)
    result.engineState = JSON.stringify(result.engineState);
  return { id: request.id, kind: 'done', advance: result };
}

port.on('message', (request: AdvanceRequest) => {
  advance(request).then(
    (reply) => port.postMessage(reply satisfies ThreadMessage),
    (err: unknown) =>
      port.postMessage({
        id: request.id,
        kind: 'failed',
        message: (err as Error)?.message ?? String(err),
      } satisfies ThreadMessage),
  );
});
