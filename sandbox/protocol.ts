import type { SandboxJob, SandboxLimits, SandboxResult } from './types.js';

/** Host → worker: one run, with its limits already resolved. */
export interface RunRequest {
  type: 'run';
  id: number;
  job: SandboxJob;
  limits: SandboxLimits;
}

/** Worker → host. `ready` once the interpreter is loaded; `done` per run. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: SandboxResult; /** The interpreter is no longer trustworthy; the worker exits after this. */ retire?: boolean };

/** What the pool hands each worker at start. */
export interface WorkerOptions {
  /** Tests only: run without the interrupt handler, so only the host backstop can stop a run. */
  interruptHandler: boolean;
  /** Ceiling of the worker's WebAssembly memory (limits.ts, workerMemoryCap). */
  memoryCapBytes: number;
}
