import { Worker } from 'node:worker_threads';
import { compileCheck } from './compile-check.js';
import { DEFAULT_LIMITS, effectiveLimits, withLimits, workerMemoryCap, workerStackMb } from './limits.js';
import { limitMessage } from './errors.js';
import type { RunRequest, RunsMessage, WorkerMessage, WorkerOptions } from './protocol.js';
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
  /** Told when the host had to step in: a worker terminated by the backstop, or one that crashed or exited. */
  onIncident?(incident: SandboxIncident): void;
}

export interface SandboxIncident {
  kind: 'backstop' | 'worker_lost' | 'cannot_start';
  tenantId?: string;
  message: string;
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
  /** Runs sent to the worker and not answered yet, in order: the first is the one running. */
  sent: Pending[];
  /** Set once the slot was replaced (terminated, crashed, retired): its events mean nothing more. */
  gone: boolean;
  /** When it last finished a run: the longest idle worker takes the next one. */
  idleSince: number;
}

/** Most runs sent to a worker in one message. */
const MAX_SENT = 32;
/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
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
  const limits = withLimits(DEFAULT_LIMITS, options.limits);
  const poolSize = Math.max(1, Math.floor(options.poolSize ?? 2));
  const margin = options.backstopMarginMs ?? 500;
  const workerOptions: WorkerOptions = {
    interruptHandler: options.interruptHandler ?? true,
    memoryCapBytes: workerMemoryCap(limits.memory_bytes),
  };
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let sequence = 0;
  let closed = false;
  /** Workers that died before they were ready, in a row: past a few, the sandbox cannot start here. */
  let failedStarts = 0;
  const MAX_FAILED_STARTS = 3;

  function spawn(): Slot {
    const worker = new Worker(WORKER_URL, {
      workerData: workerOptions,
      resourceLimits: { stackSizeMb: workerStackMb(limits.stack_bytes) },
    });
    // A worker keeps the process alive only while it starts or runs a job (see idle()).
    const slot: Slot = { worker, ready: false, sent: [], gone: false, idleSince: 0 };
    worker.on('message', (message: WorkerMessage) => {
      if (slot.gone) return;
      if (message.type === 'ready') {
        slot.ready = true;
        failedStarts = 0;
        dispatch();
        if (slot.sent.length === 0) worker.unref();
      } else if (message.type === 'done') {
        const pending = slot.sent[0];
        if (!pending || pending.id !== message.id) return;
        slot.sent.shift();
        finish(pending, message.result);
        if (message.retire) {
          tell({
            kind: 'worker_lost',
            tenantId: pending.request.job.tenantId,
            message: message.result.error?.message ?? 'the worker retired',
          });
          requeueSent(slot);
          replace(slot);
        } else if (slot.sent.length > 0) {
          startBackstop(slot, slot.sent[0] as Pending);
        } else {
          slot.idleSince = performance.now();
          dispatch();
          if (slot.sent.length === 0) worker.unref();
        }
      }
    });
    const lost = (reason: string): void => {
      if (slot.gone) return;
      // The run going when the worker died is the one to blame; those sent after it never ran.
      const pending = slot.sent.shift();
      requeueSent(slot);
      if (pending) finish(pending, failed(`the sandbox failed: ${reason}`, elapsed(pending)));
      tell({ kind: 'worker_lost', ...(pending ? { tenantId: pending.request.job.tenantId } : {}), message: reason });
      if (!slot.ready && ++failedStarts >= MAX_FAILED_STARTS) {
        tell({ kind: 'cannot_start', message: reason });
        // Not a script's doing (none ran): stop respawning, answer what waits; the next run tries again.
        slot.gone = true;
        slots.splice(slots.indexOf(slot), 1);
        for (const waiting of queue.splice(0)) waiting.resolve(failed(`the sandbox cannot start: ${reason}`));
        return;
      }
      replace(slot);
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`the worker exited (${code})`));
    slots.push(slot);
    return slot;
  }

  /** Runs sent to a slot that will not answer them go back to the head of the queue, in order. */
  function requeueSent(slot: Slot): void {
    for (const pending of slot.sent) if (pending.backstop) clearTimeout(pending.backstop);
    queue.unshift(...slot.sent.splice(0));
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

  function tell(incident: SandboxIncident): void {
    try {
      options.onIncident?.(incident);
    } catch {
      // A listener's failure is not the run's.
    }
  }

  function elapsed(pending: Pending): number {
    return pending.started === undefined ? 0 : Math.round(performance.now() - pending.started);
  }

  function finish(pending: Pending, result: SandboxResult): void {
    if (pending.backstop) clearTimeout(pending.backstop);
    pending.resolve(result);
  }

  /**
   * The host's backstop for the run a worker is on: if it has not answered by its deadline plus
   * the margin, the worker is terminated and replaced, and the run answers the deadline limit.
   */
  function startBackstop(slot: Slot, pending: Pending): void {
    pending.started = performance.now();
    pending.backstop = setTimeout(
      () => {
        if (slot.sent[0] !== pending || slot.gone) return;
        slot.sent.shift();
        requeueSent(slot);
        finish(
          pending,
          failed(limitMessage('deadline', pending.request.limits.deadline_ms), elapsed(pending), 'deadline'),
        );
        tell({
          kind: 'backstop',
          tenantId: pending.request.job.tenantId,
          message: `worker terminated ${elapsed(pending)} ms into a run with a ${pending.request.limits.deadline_ms} ms deadline`,
        });
        replace(slot);
      },
      Math.min(pending.request.limits.deadline_ms + margin, MAX_TIMER_MS),
    );
  }

  /**
   * Hands queued runs to idle workers, several at a time — the queue's share of each idle worker,
   * at most MAX_SENT — so a worker goes on from one run to the next without waiting for the
   * host's event loop to answer each.
   */
  function dispatch(): void {
    while (queue.length > 0) {
      // The worker idle the longest goes first.
      const idle = slots.filter((s) => s.ready && s.sent.length === 0 && !s.gone);
      const slot = idle.reduce<Slot | undefined>((a, s) => (!a || s.idleSince < a.idleSince ? s : a), undefined);
      if (!slot) {
        // Grow the pool up to its size while work is waiting (workers start on demand).
        const starting = slots.filter((s) => !s.ready && !s.gone).length;
        if (slots.length < poolSize && starting < queue.length) spawn();
        return;
      }
      const share = Math.min(MAX_SENT, Math.ceil(queue.length / (idle.length + Math.max(0, poolSize - slots.length))));
      const batch = queue.splice(0, Math.max(1, share));
      slot.sent.push(...batch);
      startBackstop(slot, batch[0] as Pending);
      slot.worker.ref();
      const message: RunsMessage = { type: 'runs', runs: batch.map((pending) => pending.request) };
      try {
        slot.worker.postMessage(message);
      } catch {
        // Not structured-cloneable (a function among the globals, say): the caller's mistake, reported
        // as that run's result. Each run is sent alone to find which; the others go back to the queue.
        slot.sent.splice(0);
        if (batch[0]?.backstop) clearTimeout(batch[0].backstop);
        sendAlone(slot, batch);
      }
    }
  }

  /**
   * Runs asked for in one turn of the event loop (a workflow's batch) are dispatched together at
   * its end, so idle workers each get their share in one message rather than the first runs
   * going one per worker while the rest wait for an answer.
   */
  let dispatchQueued = false;
  function dispatchSoon(): void {
    if (dispatchQueued) return;
    dispatchQueued = true;
    queueMicrotask(() => {
      dispatchQueued = false;
      dispatch();
    });
  }

  /** Sends runs one message each, answering those that cannot be sent. */
  function sendAlone(slot: Slot, batch: Pending[]): void {
    for (const pending of batch) {
      try {
        slot.worker.postMessage({ type: 'runs', runs: [pending.request] } satisfies RunsMessage);
      } catch (err) {
        finish(pending, failed(`the job cannot be sent to the sandbox: ${(err as Error).message}`));
        continue;
      }
      slot.sent.push(pending);
      if (slot.sent.length === 1) startBackstop(slot, pending);
    }
    if (slot.sent.length === 0) slot.worker.unref();
  }

  return {
    compileCheck,
    run(job: SandboxJob): Promise<SandboxResult> {
      if (closed) return Promise.reject(new Error('the sandbox is closed'));
      if (failedStarts >= MAX_FAILED_STARTS) failedStarts = MAX_FAILED_STARTS - 1;
      return new Promise((resolve) => {
        sequence += 1;
        const request: RunRequest = { type: 'run', id: sequence, job, limits: effectiveLimits(limits, job.limits) };
        queue.push({ id: sequence, request, resolve });
        dispatchSoon();
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const pending of queue.splice(0)) pending.resolve(failed('the sandbox closed before the run started'));
      const stopping = slots.splice(0).map((slot) => {
        slot.gone = true;
        for (const pending of slot.sent.splice(0)) finish(pending, failed('the sandbox closed during the run'));
        return slot.worker.terminate().catch(() => undefined);
      });
      await Promise.all(stopping);
    },
  };
}
