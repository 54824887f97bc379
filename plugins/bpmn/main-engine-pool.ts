/* Runs on the main thread: starts, feeds and replaces the engine threads (thread-engine.ts). */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AdvanceReply, AdvanceRequest, ThreadMessage } from './thread-engine.js';

/** The engine thread ended (crashed, was terminated) before answering: the request may be sent again with the saved state. */
export class ThreadGone extends Error {}

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve(reply: AdvanceReply): void; reject(err: Error): void }>;
}

/** Threads by default: one core stays with the main thread (HTTP, the embedded database), at most two for engines. */
export const defaultEngineThreads = (): number => Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * The engine threads (thread-engine.ts). An instance always goes to the same thread (by its id),
 * so the engine that thread kept from the instance's last advance can serve the next one. A
 * thread that dies fails its pending requests with ThreadGone and is replaced on next use.
 */
export class EnginePool {
  /** The pools of this process's kernels, open until closed: how a test reaches a kernel's threads to end one. */
  static readonly open = new Set<EnginePool>();
  private readonly threads: Array<Thread | undefined>;
  private nextId = 1;
  private closed = false;

  constructor(
    size: number,
    private readonly onLog: (
      tenantId: string,
      level: 'info' | 'warn' | 'error',
      message: string,
      fields: Record<string, unknown>,
    ) => void,
  ) {
    this.threads = new Array<Thread | undefined>(Math.max(1, size)).fill(undefined);
    EnginePool.open.add(this);
  }

  get size(): number {
    return this.threads.length;
  }

  /** The thread instance `instanceId` goes to. */
  indexOf(instanceId: string): number {
    let hash = 0;
    for (let i = 0; i < instanceId.length; i++) hash = (hash * 31 + instanceId.charCodeAt(i)) | 0;
    return Math.abs(hash) % this.threads.length;
  }

  request(instanceId: string, request: Omit<AdvanceRequest, 'id'>): Promise<AdvanceReply> {
    if (this.closed) return Promise.reject(new ThreadGone('the engine threads are closed'));
    const thread = this.thread(this.indexOf(instanceId));
    const id = this.nextId++;
    return new Promise<AdvanceReply>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ ...request, id } satisfies AdvanceRequest);
    });
  }

  /** Requests sent to thread `index` and not answered yet. */
  pending(index: number): number {
    return this.threads[index]?.pending.size ?? 0;
  }

  /** The worker of thread `index`, started if need be (for tests that end one). */
  worker(index: number): Worker {
    return this.thread(index).worker;
  }

  private thread(index: number): Thread {
    const existing = this.threads[index];
    if (existing) return existing;
    const worker = new Worker(new URL('./thread-engine.js', import.meta.url));
    // An idle engine thread does not keep the process alive.
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    this.threads[index] = thread;
    worker.on('message', (message: ThreadMessage) => {
      if (message.kind === 'log') return this.onLog(message.tenantId, message.level, message.message, message.fields);
      const waiting = thread.pending.get(message.id);
      thread.pending.delete(message.id);
      waiting?.resolve(message);
    });
    const gone = (reason: string) => {
      if (this.threads[index] === thread) this.threads[index] = undefined;
      for (const waiting of thread.pending.values())
        waiting.reject(new ThreadGone(`the engine thread ended (${reason})`));
      thread.pending.clear();
    };
    worker.on('error', (err) => gone(err.message));
    worker.on('exit', (code) => gone(`exit code ${code}`));
    return thread;
  }

  async close(): Promise<void> {
    this.closed = true;
    EnginePool.open.delete(this);
    await Promise.all(this.threads.map((thread) => thread?.worker.terminate()));
  }
}
