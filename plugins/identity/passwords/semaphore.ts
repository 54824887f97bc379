import { ApiError } from '../../../kernel/errors.js';

/**
 * Caps concurrent password hashes. scrypt at N = 2^17 takes 128 MiB and a libuv worker for a
 * few hundred milliseconds; without a cap a login flood would take every worker thread (and
 * the memory) and starve other routes. Waiters queue up to a bound; beyond it the caller gets
 * 429 at once rather than piling up.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly maxQueued: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        new ApiError('too_many_requests', 'Too many sign-ins are being processed; retry shortly.', {
          headers: { 'Retry-After': '1' },
        }),
      );
    }
    return new Promise((resolve) => this.waiting.push(() => resolve()));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
