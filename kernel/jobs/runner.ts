import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Events } from '../events/types.js';
import { acquireLease, countLive, markRun, pruneLapsed, releaseLease, renewLease } from './lease-store.js';
import { createLeases } from './leases.js';
import { jobMetrics } from './metrics.js';
import { WAKE_TOPIC, createWakeOutbox, parseWake, type UnitRef } from './wake.js';
import type { JobSpec, Jobs, Lease } from './types.js';

export interface JobRunnerOptions {
  db: Knex;
  logger: Logger;
  metrics: Registry;
  /** How instances wake each other (a trigger for a job held elsewhere, a released lease); without it they only find out on their next look. */
  events?: Events;
  /** Lease time of jobs that do not set their own. */
  leaseMs: number;
  /** How long `stop` waits for running jobs (and then for releasing their leases). */
  stopTimeoutMs: number;
  /** This instance's name as a lease holder; unique by default. */
  holder?: string;
}

export interface JobRunner extends Jobs {
  /** Starts taking leases and running jobs. */
  start(): void;
  /** Aborts running jobs, waits for them (bounded), then releases every lease so other instances take over at once. */
  stop(): Promise<void>;
}

/** Thrown into a run's signal when its lease is gone. */
export class LeaseLostError extends Error {
  constructor(job: string, key: string, why: string) {
    super(`job ${job}${key ? ` (key ${key})` : ''} lost its lease: ${why}`);
    this.name = 'LeaseLostError';
  }
}

const JOB_NAME = /^[a-z][a-z0-9_.-]{0,99}$/;
/**
 * One lease per live instance and keyed job kind (name `~instances:<job>`, key: the holder), for
 * sharing that job's keys fairly among the instances that run it — an instance without the
 * plugin that contributes the job must not count toward its share.
 */
const PRESENCE = '~instances';
const PRESENCE_FORGOTTEN_MS = 3_600_000;
const MAX_RETRY_MS = 60_000;
const IDLE_TICK_MS = 60_000;

interface Job {
  readonly spec: JobSpec;
  readonly leaseMs: number;
  readonly units: Map<string, Unit>;
  keysAt: number;
  readingKeys: boolean;
}

/** One lease of a job (its only one, or one key's) and what this instance does with it. */
interface Unit {
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

const clock = (): number => performance.now();

/**
 * Runs jobs under leases. Every instance competes for every job; the holder keeps its lease by
 * renewing it every third of the lease time and runs the job on its schedule; a standby tries
 * again when the holder's lease would lapse, or at once when told it was released. Local times
 * here are only durations (a monotonic clock); expiry itself is the database's time.
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, logger, events } = options;
  const holder = options.holder ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const leases = createLeases(db, holder);
  const metrics = jobMetrics(options.metrics);
  const outbox = createWakeOutbox(events, holder, logger);
  const jobs = new Map<string, Job>();
  const inflight = new Set<Promise<unknown>>();
  const presence = { leases: new Map<string, Lease>(), busy: false, at: 0, live: new Map<string, number>() };
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let started = false;
  let stopping = false;
  let stopped: Promise<void> | undefined;

  function track<T>(promise: Promise<T>): Promise<T> {
    inflight.add(promise);
    void promise.finally(() => inflight.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Schedules a tick no later than `at` (local ms; now by default). */
  function poke(at = clock()): void {
    if (!started || stopping) return;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(tick, Math.max(0, at - clock()));
    timer.unref();
  }

  function newUnit(job: Job, key: string): Unit {
    return {
      job, key, lease: null, busy: null, holdOffUntil: 0, renewAt: 0, lostAt: 0, acquireAt: 0,
      dueAt: Infinity, wanted: false, failures: 0, retired: false, running: undefined, abort: undefined,
    };
  }

  const keyed = (job: Job): boolean => job.spec.keys !== undefined;
  const live = (job: Job): Unit[] => [...job.units.values()].filter((u) => !u.retired);
  const heldCount = (job: Job): number => live(job).filter((u) => (u.lease && u.busy !== 'release') || u.busy === 'acquire').length;
  /** This instance's fair part of a keyed job's keys. */
  const share = (job: Job): number => Math.ceil(live(job).length / Math.max(1, presence.live.get(job.spec.name) ?? 1));
  const mayTake = (job: Job): boolean => !keyed(job) || heldCount(job) < share(job);
  const overShare = (job: Job): boolean => keyed(job) && heldCount(job) > share(job);

  function held(unit: Unit, sentAt: number): void {
    const { leaseMs } = unit.job;
    unit.renewAt = sentAt + leaseMs / 3;
    unit.lostAt = sentAt + leaseMs - leaseMs / 10;
  }

  function failed(unit: Unit, err: unknown, what: string): void {
    unit.holdOffUntil = clock() + unit.job.leaseMs / 10;
    logger.warn({ err, job: unit.job.spec.name, key: unit.key || undefined }, `job lease could not be ${what}; retrying`);
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
          unit.dueAt = interval === undefined ? Infinity : sentAt + Math.max(0, interval - (result.sinceRunMs ?? interval));
          logger.debug({ job: job.spec.name, key: unit.key || undefined, epoch: result.lease.epoch }, 'job lease taken');
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
          if (!stopping && !unit.retired) run(unit, lease, sentAt);
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
          const retryMs = Math.min(1000 * 2 ** (unit.failures - 1), MAX_RETRY_MS);
          unit.dueAt = Math.min(unit.dueAt, clock() + retryMs);
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
      if (!unit.running && (unit.retired || overShare(job))) return void release(unit, lease);
      if (!unit.running && (unit.wanted || now >= unit.dueAt)) return begin(unit, lease);
      return;
    }
    if (unit.retired) {
      if (!unit.running) job.units.delete(unit.key);
      return;
    }
    if (now >= unit.acquireAt && mayTake(job)) acquire(unit);
  }

  /** When this unit next needs a look (local ms). */
  function nextLook(unit: Unit): number {
    if (unit.busy) return unit.lease ? unit.lostAt : Infinity;
    let at: number;
    if (unit.lease) {
      const idle = !unit.running;
      const act = idle && (unit.wanted || unit.retired || overShare(unit.job)) ? 0 : idle ? unit.dueAt : Infinity;
      at = Math.min(unit.lostAt, unit.renewAt, act);
    } else if (unit.retired) {
      at = unit.running ? Infinity : 0;
    } else {
      // Over its share, an instance waits for the count of instances or keys to change.
      at = mayTake(unit.job) ? unit.acquireAt : Infinity;
    }
    return Math.max(at, unit.holdOffUntil);
  }

  function readKeys(job: Job): void {
    const read = job.spec.keys;
    if (!read) return;
    job.readingKeys = true;
    void track(Promise.resolve().then(read))
      .then((keys) => {
        const current = new Set(keys);
        for (const key of current) {
          if (typeof key !== 'string') throw new TypeError(`job keys must be strings, got ${typeof key}`);
          const unit = job.units.get(key);
          if (unit) unit.retired = false;
          else job.units.set(key, newUnit(job, key));
        }
        for (const unit of job.units.values()) if (!current.has(unit.key)) unit.retired = true;
      })
      .catch((err: unknown) => logger.warn({ err, job: job.spec.name }, 'the keys of a job could not be read; keeping the last ones'))
      .finally(() => {
        job.readingKeys = false;
        job.keysAt = clock() + job.leaseMs / 3;
        poke();
      });
  }

  /** Keeps this instance's presence leases and counts the live instances per keyed job (only while a keyed job exists). */
  function stepPresence(now: number): void {
    if (presence.busy || now < presence.at) return;
    presence.busy = true;
    void track(
      (async () => {
        for (const job of [...jobs.values()].filter(keyed)) {
          const name = `${PRESENCE}:${job.spec.name}`;
          const result = await acquireLease(db, name, holder, holder, options.leaseMs);
          if ('lease' in result) presence.leases.set(job.spec.name, result.lease);
          presence.live.set(job.spec.name, Math.max(1, await countLive(db, name)));
          await pruneLapsed(db, name, PRESENCE_FORGOTTEN_MS);
        }
      })(),
    )
      .catch((err: unknown) => logger.debug({ err }, 'instance presence could not be renewed'))
      .finally(() => {
        presence.busy = false;
        presence.at = clock() + options.leaseMs / 3;
        poke();
      });
  }

  function tick(): void {
    timer = undefined;
    timerAt = Infinity;
    if (stopping) return;
    const now = clock();
    let next = now + IDLE_TICK_MS;
    const anyKeyed = [...jobs.values()].some(keyed);
    if (anyKeyed) {
      stepPresence(now);
      next = Math.min(next, presence.busy ? Infinity : presence.at);
    }
    for (const job of jobs.values()) {
      if (keyed(job) && !job.readingKeys && now >= job.keysAt) readKeys(job);
      if (keyed(job) && !job.readingKeys) next = Math.min(next, job.keysAt);
      for (const unit of [...job.units.values()]) {
        step(unit, now);
        next = Math.min(next, nextLook(unit));
      }
    }
    poke(Math.max(next, now + 1));
  }

  /** Asks for a run of a unit here; tells whether this instance holds it (else the holder must be told). */
  function wantHere(job: Job, key: string | null): boolean {
    if (key === null) {
      job.keysAt = 0;
      for (const unit of job.units.values()) if (unit.lease) unit.wanted = true;
      return false;
    }
    const unit = job.units.get(key);
    if (unit?.lease) {
      unit.wanted = true;
      return true;
    }
    // Not held here: try to take it (its holder may be gone), and run it if that succeeds.
    if (unit) {
      unit.wanted = true;
      unit.acquireAt = 0;
    } else if (keyed(job)) job.keysAt = 0;
    return false;
  }

  events?.subscribe(WAKE_TOPIC, (event) => {
    const message = parseWake(event.payload);
    if (!message || message.from === holder) return;
    for (const [name, key] of message.run) {
      const job = jobs.get(name);
      if (job) wantHere(job, key);
    }
    for (const [name, key] of message.free) {
      const unit = key === null ? undefined : jobs.get(name)?.units.get(key);
      if (unit && !unit.lease) unit.acquireAt = 0;
    }
    poke();
  });

  function allUnits(): Unit[] {
    return [...jobs.values()].flatMap((job) => [...job.units.values()]);
  }

  function within<T>(promise: Promise<T>, until: number): Promise<boolean> {
    let bound: NodeJS.Timeout | undefined;
    return Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => (bound = setTimeout(() => resolve(false), Math.max(0, until - clock())))),
    ]).finally(() => clearTimeout(bound));
  }

  return {
    leases,
    register(spec) {
      if (stopping) throw new Error(`job ${spec.name} registered after the kernel began to stop`);
      if (!JOB_NAME.test(spec.name)) throw new TypeError(`job name "${spec.name}" must match ${JOB_NAME.source}`);
      if (jobs.has(spec.name)) throw new Error(`job ${spec.name} is registered twice`);
      if (spec.intervalMs !== undefined && !(Number.isInteger(spec.intervalMs) && spec.intervalMs > 0)) throw new RangeError(`job ${spec.name}: intervalMs must be a positive integer`);
      if (spec.leaseMs !== undefined && !(Number.isInteger(spec.leaseMs) && spec.leaseMs >= 50)) throw new RangeError(`job ${spec.name}: leaseMs must be an integer of at least 50`);
      const job: Job = { spec, leaseMs: spec.leaseMs ?? options.leaseMs, units: new Map(), keysAt: 0, readingKeys: false };
      if (!spec.keys) job.units.set('', newUnit(job, ''));
      jobs.set(spec.name, job);
      poke();
    },
    trigger(name, key) {
      const job = jobs.get(name);
      if (!job) throw new Error(`no job named ${name}`);
      const ref: UnitRef = [name, key ?? (keyed(job) ? null : '')];
      if (!wantHere(job, ref[1])) outbox.send('run', ref);
      poke();
    },
    start() {
      started = true;
      poke();
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearTimeout(timer);
        const until = clock() + options.stopTimeoutMs;
        const units = allUnits();
        for (const unit of units) unit.abort?.abort(new Error('the kernel is stopping'));
        const runs = units.flatMap((u) => (u.running ? [u.running] : []));
        if (!(await within(Promise.allSettled([...runs, ...inflight]), until))) {
          logger.warn({ jobs: units.filter((u) => u.running).map((u) => u.job.spec.name) }, 'jobs still running at shutdown; their leases are left to lapse');
        }
        const releases = units.flatMap((u) => (u.lease && !u.running && !u.busy ? [release(u, u.lease)] : []));
        for (const lease of presence.leases.values()) releases.push(releaseLease(db, lease).then(() => undefined));
        await within(Promise.allSettled(releases).then(() => outbox.flush()), until);
      })();
      return stopped;
    },
  };
}
