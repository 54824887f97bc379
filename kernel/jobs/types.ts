import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CombinedWrite } from '../db/combined-write.js';

/** A lease as its holder knows it. */
export interface Lease {
  readonly name: string;
  /** '' for a job's single lease; the key for per-key leases (one per stream partition, say). */
  readonly key: string;
  /** The instance holding it. */
  readonly holder: string;
  /** Fencing token: grows whenever the lease is taken afresh, so a former holder can tell it lost it. */
  readonly epoch: number;
}

/**
 * Leases in the database, held by this instance. Expiry is the database's time. A plugin that
 * shares work by key without a job (a BPMN instance, say) uses these directly; most use a job.
 */
export interface Leases {
  /** This instance's name as a holder. */
  readonly holder: string;
  /** Takes the lease when it is free or already ours (then extends it); null when another instance holds it. */
  acquire(name: string, key: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a lease we hold; false once another instance has taken it (stop acting under it). */
  renew(lease: Lease, ttlMs: number): Promise<boolean>;
  /** Frees it at once; false when it was no longer ours. */
  release(lease: Lease): Promise<boolean>;
  /**
   * In the caller's transaction: locks the lease row and tells whether it is still ours at this
   * epoch. Commit work done under a lease only when this returns true: a takeover then waits for
   * the commit, and work of a holder that lost the lease cannot commit after the new one started.
   */
  fence(trx: Knex.Transaction, lease: Lease): Promise<boolean>;
  /**
   * The same fence as a guard of a combined write (one statement, no transaction): the write's
   * other parts commit only while the lease is ours at this epoch, the lease row locked as `fence`
   * locks it. When it is not, nothing is written and the write throws RunInTransaction: the
   * caller's transactional path (with `fence`) then finds out what moved.
   */
  fenceIn(write: CombinedWrite, lease: Lease): void;
  /** Who holds a lease now, or null when nobody does. */
  holderOf(name: string, key?: string): Promise<{ holder: string; epoch: number } | null>;
}

/** `'more'`: the run left work behind (a full batch, say); run again at once rather than at the next tick. */
// biome-ignore lint/suspicious/noConfusingVoidType: a job's run may return nothing at all
export type JobOutcome = void | 'more';

export interface JobContext {
  /** The key this run is for ('' for a job without keys). */
  readonly key: string;
  /** Aborted when the lease is lost (another instance may now run the job) or the kernel stops. */
  readonly signal: AbortSignal;
  /** The lease the run holds, for `leases.fence` in the run's transaction. */
  readonly lease: Lease;
  readonly logger: Logger;
}

export interface JobSpec {
  /** Unique, `<plugin>.<what>` by convention (`audit.sweep`). */
  readonly name: string;
  /**
   * Runs every this many ms, counted across instances from the start of the last run (a takeover
   * keeps the rhythm). Without it the job runs only when triggered.
   */
  readonly intervalMs?: number;
  /**
   * Per-key leases: the job runs separately for each key, each under its own lease, and the
   * instances share the keys fairly. Read again every third of the lease time and on `trigger(name)`.
   */
  readonly keys?: () => Promise<readonly string[]> | readonly string[];
  /** How long a lease lasts without renewal (the time a killed instance's work takes to move on); defaults to `jobs.lease_ms`. */
  readonly leaseMs?: number;
  run(context: JobContext): Promise<JobOutcome> | JobOutcome;
}

/**
 * Background jobs. Each job (or each key of a keyed job) runs on exactly one instance at a time,
 * under a lease in the database that the instance renews while it holds it; a killed instance's
 * lease lapses and another takes the job over. A job never overlaps itself; a failing run is
 * logged, counted and retried with backoff, never thrown.
 */
export interface Jobs {
  readonly leases: Leases;
  /** Registers a job; it starts running once the kernel has started. */
  register(spec: JobSpec): void;
  /**
   * Asks for a run soon, on whichever instance holds the job (or the key): at once here when
   * this instance holds it, otherwise through an event to the holder. Runs asked for while one
   * is running coalesce into one more run.
   */
  trigger(name: string, key?: string): void;
}

/**
 * How long the job runner waits before running a key again after `failures` failed runs in a row:
 * 1 s, doubling, at most a minute — whatever the job's interval (a failing run is not run again
 * at the interval). Exported so a job can show when its next attempt is due.
 */
export function retryDelayMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 60_000);
}
