import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { acquireLease, markRun, releaseLease, renewLease } from './lease-store.js';
import type { jobMetrics } from './metrics.js';
import type { Presence } from './presence.js';
import { retryDelayMs, type Lease } from './types.js';
import { clock, type Unit } from './unit.js';
import type { createWakeOutbox } from './wake.js';

/** Thrown into a run's signal when its lease is gone. */
export class LeaseLostError extends Error {
  constructor(job: string, key: string, why: string) {
    super(`job ${job}${key ? ` (key ${key})` : ''} lost its lease: ${why}`);
    this.name = 'LeaseLostError';
  }
}

export interface UnitDriver {
  /** Does whatever is due for one unit; at most one statement per unit is in flight. */
  step(unit: Unit, now: number): void;
  /** When this unit next needs a look (local ms). */
  nextLook(unit: Unit): number;
  release(unit: Unit, lease: Lease): Promise<void>;
}

/**
 * The life of one unit's lease on this instance: take it, renew it every third of the lease
 * time, mark and run the job while holding it, give it back (a retired key, more than our
 * share, stopping), and take it as lost — aborting the run — when a renewal does not get
 * through before the lease would lapse in the database. Each step is one statement, and the
 * runner's tick decides when a unit takes its next one.
 */
export function createUnitDriver(o: {
  db: Knex;
  holder: string;
  logger: Logger;
  metrics: ReturnType<typeof jobMetrics>;
  outbox: ReturnType<typeof createWakeOutbox>;
  presence: Presence;
  track: <T>(promise: Promise<T>) => Promise<T>;
  poke: () => void;
  stopping: () => boolean;
}): UnitDriver {
  const { db, holder, logger, metrics, outbox, presence, track, poke } = o;

  function held(unit: Unit, sentAt: number): void {
    const { leaseMs } = unit.job;
    unit.renewAt = sentAt + leaseMs / 3;
    unit.lostAt = sentAt + leaseMs - leaseMs / 10;
  }

  function failed(unit: Unit, err: unknown, what: string): void {
    unit.holdOffUntil = clock() + unit.job.leaseMs / 10;
    logger.warn(
      { err, job: unit.job.spec.name, key: unit.key || undefined },
      `job lease could not be ${what}; retrying`,
    );
  }

  function lose(unit: Unit, why: string): void {
    const lease = unit.lease;
    if (!lease) return;
    unit.lease = null;
    unit.acquireAt = 0;
    unit.abort?.abort(new LeaseLostError(unit.job.spec.name, unit.key, why));
    metrics.lost.inc({ job: unit.job.spec.name });
    logger.warn({ job: unit.job.spec.name, key: unit.key || undefined, epoch: lease.epoch }, `job lease lost: ${why}`);
  }

  function acquire(unit: Unit): void {
    const { job } = unit;
    const sentAt = clock();
    unit.busy = 'acquire';
    void track(acquireLease(db, job.spec.name, unit.key, holder, job.leaseMs))
      .then(
        (result) => {
          unit.busy = null;
          if (!('lease' in result)) {
            unit.wanted = false;
            // Come back when the holder's lease would lapse: if it still renews, it is alive.
            unit.acquireAt = clock() + Math.max(result.remainingMs, 10);
            return;
          }
          unit.lease = result.lease;
          held(unit, sentAt);
          const interval = job.spec.intervalMs;
          unit.dueAt =
            interval === undefined ? Infinity : sentAt + Math.max(0, interval - (result.sinceRunMs ?? interval));
          logger.debug(
            { job: job.spec.name, key: unit.key || undefined, epoch: result.lease.epoch },
            'job lease taken',
          );
        },
        (err: unknown) => {
          unit.busy = null;
          unit.acquireAt = clock() + job.leaseMs / 3;
          failed(unit, err, 'taken');
        },
      )
      .finally(() => poke());
  }

  function renew(unit: Unit, lease: Lease): void {
    const sentAt = clock();
    unit.busy = 'renew';
    void track(renewLease(db, lease, unit.job.leaseMs))
      .then(
        (ok) => {
          unit.busy = null;
          if (unit.lease !== lease) return;
          if (ok) held(unit, sentAt);
          else lose(unit, 'another instance took it over');
        },
        (err: unknown) => {
          unit.busy = null;
          failed(unit, err, 'renewed');
        },
      )
      .finally(() => poke());
  }

  function release(unit: Unit, lease: Lease): Promise<void> {
    unit.busy = 'release';
    return track(releaseLease(db, lease))
      .then(
        () => {
          unit.busy = null;
          if (unit.lease === lease) unit.lease = null;
          outbox.send('free', [unit.job.spec.name, unit.key]);
        },
        (err: unknown) => {
          unit.busy = null;
          failed(unit, err, 'released');
        },
      )
      .finally(() => poke());
  }

  /** Records the run's start against the lease (which also proves it is still ours), then runs. */
  function begin(unit: Unit, lease: Lease): void {
    const sentAt = clock();
    unit.busy = 'mark';
    void track(markRun(db, lease, unit.job.leaseMs))
      .then(
        (ok) => {
          unit.busy = null;
          if (unit.lease !== lease) return;
          if (!ok) return lose(unit, 'another instance took it over');
          held(unit, sentAt);
          if (!o.stopping() && !unit.retired) run(unit, lease, sentAt);
        },
        (err: unknown) => {
          unit.busy = null;
          failed(unit, err, 'renewed for a run');
        },
      )
      .finally(() => poke());
  }

  function run(unit: Unit, lease: Lease, startedAt: number): void {
    const { job, key } = unit;
    const name = job.spec.name;
    const interval = job.spec.intervalMs;
    unit.wanted = false;
    unit.dueAt = interval === undefined ? Infinity : startedAt + interval;
    const abort = new AbortController();
    unit.abort = abort;
    const log = logger.child({ job: name, ...(key ? { key } : {}) });
    const endTimer = metrics.duration.startTimer({ job: name });
    unit.running = (async () => job.spec.run({ key, signal: abort.signal, lease, logger: log }))()
      .then(
        (outcome) => {
          unit.failures = 0;
          metrics.runs.inc({ job: name, outcome: abort.signal.aborted ? 'aborted' : 'success' });
          if (outcome === 'more' && !abort.signal.aborted) unit.wanted = true;
        },
        (err: unknown) => {
          if (abort.signal.aborted) {
            metrics.runs.inc({ job: name, outcome: 'aborted' });
            log.info({ err }, 'job run stopped: its lease was lost or the kernel is stopping');
            return;
          }
          unit.failures += 1;
          metrics.runs.inc({ job: name, outcome: 'failure' });
          const retryMs = retryDelayMs(unit.failures);
          // The backoff replaces the interval: a failing run at a 2 s interval still waits 1, 2, 4… 60 s.
          unit.dueAt = clock() + retryMs;
          log.error({ err, failures: unit.failures, retry_ms: retryMs }, 'job run failed');
        },
      )
      .finally(() => {
        endTimer();
        unit.running = undefined;
        unit.abort = undefined;
        poke();
      });
  }

  /** Does whatever is due for one unit; at most one statement per unit is in flight. */
  function step(unit: Unit, now: number): void {
    const { job } = unit;
    if (unit.lease && now >= unit.lostAt) lose(unit, 'it could not be renewed in time');
    if (unit.busy || now < unit.holdOffUntil) return;
    const lease = unit.lease;
    if (lease) {
      if (now >= unit.renewAt) return renew(unit, lease);
      if (!unit.running && (unit.retired || presence.overShare(job))) return void release(unit, lease);
      if (!unit.running && (unit.wanted || now >= unit.dueAt)) return begin(unit, lease);
      return;
    }
    if (unit.retired) {
      if (!unit.running) job.units.delete(unit.key);
      return;
    }
    if (now >= unit.acquireAt && presence.mayTake(job)) acquire(unit);
  }

  /** When this unit next needs a look (local ms). */
  function nextLook(unit: Unit): number {
    if (unit.busy) return unit.lease ? unit.lostAt : Infinity;
    let at: number;
    if (unit.lease) {
      const idle = !unit.running;
      const act =
        idle && (unit.wanted || unit.retired || presence.overShare(unit.job)) ? 0 : idle ? unit.dueAt : Infinity;
      at = Math.min(unit.lostAt, unit.renewAt, act);
    } else if (unit.retired) {
      at = unit.running ? Infinity : 0;
    } else {
      // Over its share, an instance waits for the count of instances or keys to change.
      at = presence.mayTake(unit.job) ? unit.acquireAt : Infinity;
    }
    return Math.max(at, unit.holdOffUntil);
  }

  return { step, nextLook, release };
}
