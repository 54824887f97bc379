import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, effectiveLimits, workerStackMb } from './limits.js';
import { limitMessage } from './errors.js';
import type { RunRequest, WorkerMessage, WorkerOptions } from './protocol.js';
import type { Sandbox, SandboxJob, SandboxLimits, SandboxResult } from './types.js';

export interface SandboxOptions {
  /** Defaults for every run (a job may override them, the stack only downwards). */
  limits?: Partial<SandboxLimits>;
  /** Worker threads running scripts at once (default 2). */
  poolSize?: number;
  /** How long past a run's deadline the host waits before it terminates the worker (default 500 ms). */
  backstopMarginMs?: number;
  /** Tests only: turn the interpreter's interrupt handler off, leaving the host backstop alone. */
  interruptHandler?: boolean;
}

interface Pending {
  id: number;
  request: RunRequest;
  resolve(result: SandboxResult): void;
  started?: number;
  backstop?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: Pending | undefined;
  /** Set once the slot was replaced (terminated, crashed, retired): its events mean nothing more. */
  gone: boolean;
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

function failed(message: string, durationMs = 0, limit?: 'deadline'): SandboxResult {
  return { ok: false, pushed: [], logs: [], duration_ms: durationMs, error: { message, ...(limit ? { limit } : {}) } };
}

/**
 * The sandbox: a small pool of worker threads running jobs in QuickJS, started on the first run
 * (so creating it costs nothing at boot). Each run gets a backstop timer: if the worker has not
 * answered by the deadline plus a margin — the interpreter's interrupt handler failed to stop
 * the script, say inside a long native call — the worker is terminated and replaced, and the
 * run answers `ok: false` with the deadline limit. The host's event loop never runs tenant code.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const limits = effectiveLimits(DEFAULT_LIMITS, options.limits);
  const poolSize = Math.max(1, Math.floor(options.poolSize ?? 2));
  const margin = options.backstopMarginMs ?? 500;
  const workerOptions: WorkerOptions = { interruptHandler: options.interruptHandler ?? true };
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let sequence = 0;
  let closed = false;

  function spawn(): Slot {
    const worker = new Worker(WORKER_URL, { workerData: workerOptions, resourceLimits: { stackSizeMb: workerStackMb(limits.stack_bytes) } });
    // A worker keeps the process alive only while it starts or runs a job (see idle()).
    const slot: Slot = { worker, ready: false, running: undefined, gone: false };
    worker.on('message', (message: WorkerMessage) => {
      if (slot.gone) return;
      if (message.type === 'ready') {
        slot.ready = true;
        dispatch();
        if (!slot.running) worker.unref();
      } else if (message.type === 'done') {
        const pending = slot.running;
        if (!pending || pending.id !== message.id) return;
        slot.running = undefined;
        finish(pending, message.result);
        if (message.retire) replace(slot);
        else {
          dispatch();
          if (!slot.running) worker.unref();
        }
      }
    });
    const lost = (reason: string): void => {
      if (slot.gone) return;
      const pending = slot.running;
      slot.running = undefined;
      if (pending) finish(pending, failed(`the sandbox failed: ${reason}`, elapsed(pending)));
      replace(slot);
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`the worker exited (${code})`));
    slots.push(slot);
    return slot;
  }

  /** Drops a slot and, unless closing, starts a fresh worker in its place (so the next run does not wait for one). */
  function replace(slot: Slot): void {
    if (slot.gone) return;
    slot.gone = true;
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate().catch(() => undefined);
    if (!closed) {
      spawn();
      dispatch();
    }
  }

  function elapsed(pending: Pending): number {
    return pending.started === undefined ? 0 : Math.round(performance.now() - pending.started);
  }

  function finish(pending: Pending, result: SandboxResult): void {
    if (pending.backstop) clearTimeout(pending.backstop);
    pending.resolve(result);
  }

  function dispatch(): void {
    while (queue.length > 0) {
      const slot = slots.find((s) => s.ready && !s.running && !s.gone);
      if (!slot) {
        // Grow the pool up to its size while work is waiting (workers start on demand).
        const starting = slots.filter((s) => !s.ready && !s.gone).length;
        if (slots.length < poolSize && starting < queue.length) spawn();
        return;
      }
      const pending = queue.shift() as Pending;
      slot.running = pending;
      pending.started = performance.now();
      pending.backstop = setTimeout(() => {
        if (slot.running !== pending) return;
        slot.running = undefined;
        finish(pending, failed(limitMessage('deadline', pending.request.limits.deadline_ms), elapsed(pending), 'deadline'));
        replace(slot);
      }, pending.request.limits.deadline_ms + margin);
      slot.worker.ref();
      try {
        slot.worker.postMessage(pending.request);
      } catch (err) {
        // Not structured-cloneable (a function among the globals, say): the caller's mistake, reported as a result.
        slot.running = undefined;
        finish(pending, failed(`the job cannot be sent to the sandbox: ${(err as Error).message}`));
      }
    }
  }

  return {
    run(job: SandboxJob): Promise<SandboxResult> {
      if (closed) return Promise.reject(new Error('the sandbox is closed'));
      return new Promise((resolve) => {
        sequence += 1;
        const request: RunRequest = { type: 'run', id: sequence, job, limits: effectiveLimits(limits, job.limits) };
        queue.push({ id: sequence, request, resolve });
        dispatch();
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const pending of queue.splice(0)) pending.resolve(failed('the sandbox closed before the run started'));
      const stopping = slots.splice(0).map((slot) => {
        slot.gone = true;
        if (slot.running) finish(slot.running, failed('the sandbox closed during the run'));
        return slot.worker.terminate().catch(() => undefined);
      });
      await Promise.all(stopping);
    },
  };
}
