import type { SandboxJob, SandboxLimits, SandboxResult } from './types.js';

/** One run, with its limits already resolved. */
export interface RunRequest {
  type: 'run';
  id: number;
  job: SandboxJob;
  limits: SandboxLimits;
}

/**
 * Host → worker: runs to do one after the other, each answered by its own `done` as it ends
 * (several per message, so the worker keeps running while the host's event loop is busy).
 */
export interface RunsMessage {
  type: 'runs';
  runs: RunRequest[];
}

/** Worker → host. `ready` once the interpreter is loaded; `done` per run, in the order sent. */
export type WorkerMessage =
  | { type: 'ready' }
  | {
      type: 'done';
      id: number;
      result: SandboxResult /** The interpreter is no longer trustworthy; the worker exits after this. */;
      retire?: boolean;
    };

/** What the pool hands each worker at start. */
export interface WorkerOptions {
  /** Tests only: run without the interrupt handler, so only the host backstop can stop a run. */
  interruptHandler: boolean;
  /** Ceiling of the worker's WebAssembly memory (limits.ts, workerMemoryCap). */
  memoryCapBytes: number;
}
