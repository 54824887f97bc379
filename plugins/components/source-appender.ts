import type { SourceMessage } from './contract.js';

/** One message a source emitted, waiting for the batch that makes it durable. */
export interface Pending {
  message: SourceMessage;
  dedupId?: string | undefined;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Group commit for a running source: what it emits while a batch is being written (or in the
 * same turn of the event loop) is appended together by the next batch — one transaction, the
 * messages without a broker id in one multi-row write — and every emit of the batch resolves
 * once it is durable, so the source acknowledges its broker then. Order is kept: batches are
 * written one after another, each in arrival order. A batch is started from `setImmediate`, so
 * however deep a broker's backlog, the event loop gets a turn (timers, I/O, HTTP requests)
 * between two batches.
 */
/**
 * The most messages one batch appends. A batch's statement runs on the kernel's thread on the
 * embedded database and cannot be cut: at ~0.08 ms a message there, 500 held the event loop
 * 40–50 ms (`/health` waited as long); 128 hold it ~10 ms, and the batch's own cost beside its
 * messages' (one statement with its fence) stays small.
 */
export const SOURCE_BATCH_MAX = 128;

export class SourceAppender {
  private queue: Pending[] = [];
  private writing = false;
  private scheduled = false;
  private closedWith: Error | undefined;

  constructor(
    private readonly write: (batch: Pending[]) => Promise<void>,
    private readonly maxBatch = SOURCE_BATCH_MAX,
    private readonly observe?: (count: number, seconds: number) => void,
  ) {}

  emit(message: SourceMessage, dedupId?: string): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ message, dedupId, resolve, reject });
      this.schedule();
    });
  }

  /** Refuses what is emitted from now on and fails what waits (a stopping source acknowledges none of it). */
  close(error: Error): void {
    this.closedWith = error;
    for (const p of this.queue.splice(0)) p.reject(error);
  }

  private schedule(): void {
    if (this.scheduled || this.writing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    const batch = this.queue.splice(0, this.maxBatch);
    const started = performance.now();
    try {
      await this.write(batch);
      this.observe?.(batch.length, (performance.now() - started) / 1000);
      for (const p of batch) p.resolve();
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      for (const p of batch) p.reject(error);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}
