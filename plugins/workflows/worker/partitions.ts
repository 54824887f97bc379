import type { RetryRow } from '../worker-store.js';
import type { Prepared, Written } from './commit.js';

/** What the holder of a partition's lease may keep between batches: nobody else writes it while the lease (this epoch) is ours. */
export interface PartitionState {
  epoch: number;
  committed: number | undefined;
  /** The retry row as last read or written; null when there is none. */
  retry: RetryRow | null | undefined;
  lagAt: number;
  /** The previous batch's transaction while it commits (the next one is processed meanwhile). */
  inFlight?: { prepared: Prepared; written: Promise<Written> } | undefined;
}

/**
 * The partitions this instance holds, each with its offset, retry row and the batch still
 * committing. Keeping them saves two reads per batch; a new lease epoch (the partition was
 * elsewhere meanwhile) or any failure drops the state so it is read again from the database.
 */
export class PartitionStates {
  private readonly states = new Map<string, PartitionState>();

  constructor(private readonly account: (p: Prepared, written: Written, state: PartitionState) => Promise<void>) {}

  /** The partition's state under this lease epoch: what was kept, or a fresh one to fill from the database. */
  of(key: string, epoch: number): PartitionState {
    let state = this.states.get(key);
    if (!state || state.epoch !== epoch) {
      state = { epoch, committed: undefined, retry: undefined, lagAt: 0 };
      this.states.set(key, state);
    }
    return state;
  }

  get(key: string): PartitionState | undefined {
    return this.states.get(key);
  }

  /** Read everything again next time: the lease, the offset or the retry row may have moved. */
  forget(key: string): void {
    this.states.delete(key);
  }

  /** Waits for the partition's transaction in flight, if any, and accounts for it; a failure makes the state be read again. */
  async settle(key: string): Promise<void> {
    const state = this.states.get(key);
    const flight = state?.inFlight;
    if (!state || !flight) return;
    state.inFlight = undefined;
    let written: Written;
    try {
      written = await flight.written;
    } catch (err) {
      this.states.delete(key);
      throw err;
    }
    state.retry = written.retry;
    await this.account(flight.prepared, written, state);
  }
}
