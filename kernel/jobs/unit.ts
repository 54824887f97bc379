import { performance } from 'node:perf_hooks';
import type { JobSpec, Lease } from './types.js';

/** A registered job: its spec and its units (one for a plain job, one per key for a keyed one). */
export interface Job {
  readonly spec: JobSpec;
  readonly leaseMs: number;
  readonly units: Map<string, Unit>;
  keysAt: number;
  readingKeys: boolean;
}

/** One lease of a job (its only one, or one key's) and what this instance does with it. */
export interface Unit {
  readonly job: Job;
  readonly key: string;
  lease: Lease | null;
  /** The lease statement in flight, if any (one at a time per unit). */
  busy: 'acquire' | 'renew' | 'mark' | 'release' | null;
  /** No statement before this (local ms), after one failed. */
  holdOffUntil: number;
  renewAt: number;
  /** When the lease must be taken as gone if no renewal got through (a little before it lapses in the database). */
  lostAt: number;
  acquireAt: number;
  dueAt: number;
  wanted: boolean;
  failures: number;
  /** The key is no longer among the job's keys: release and forget it once idle. */
  retired: boolean;
  running: Promise<void> | undefined;
  abort: AbortController | undefined;
}

/** Local time for durations only (monotonic: a wall-clock jump must not expire or extend a lease). */
export const clock = (): number => performance.now();

export function newUnit(job: Job, key: string): Unit {
  return {
    job,
    key,
    lease: null,
    busy: null,
    holdOffUntil: 0,
    renewAt: 0,
    lostAt: 0,
    acquireAt: 0,
    dueAt: Infinity,
    wanted: false,
    failures: 0,
    retired: false,
    running: undefined,
    abort: undefined,
  };
}

export const keyed = (job: Job): boolean => job.spec.keys !== undefined;
/** The job's units whose keys are current. */
export const live = (job: Job): Unit[] => [...job.units.values()].filter((u) => !u.retired);
/** How many of the job's current units this instance holds or is taking. */
export const heldCount = (job: Job): number =>
  live(job).filter((u) => (u.lease && u.busy !== 'release') || u.busy === 'acquire').length;
