import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Events } from '../events/types.js';
import { releaseLease } from './lease-store.js';
import { createLeases } from './leases.js';
import { createUnitDriver } from './lease-unit.js';
import { jobMetrics } from './metrics.js';
import { createPresence } from './presence.js';
import type { Jobs } from './types.js';
import { clock, keyed, newUnit, type Job, type Unit } from './unit.js';
import { WAKE_TOPIC, createWakeOutbox, parseWake, type UnitRef } from './wake.js';

export { LeaseLostError } from './lease-unit.js';

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

const JOB_NAME = /^[a-z][a-z0-9_.-]{0,99}$/;
const IDLE_TICK_MS = 60_000;

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
  const presence = createPresence({
    db,
    holder,
    leaseMs: options.leaseMs,
    logger,
    jobs: () => jobs.values(),
    track,
    poke,
  });
  const units = createUnitDriver({
    db,
    holder,
    logger,
    metrics,
    outbox,
    presence,
    track,
    poke,
    stopping: () => stopping,
  });
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
      .catch((err: unknown) =>
        logger.warn({ err, job: job.spec.name }, 'the keys of a job could not be read; keeping the last ones'),
      )
      .finally(() => {
        job.readingKeys = false;
        job.keysAt = clock() + job.leaseMs / 3;
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
      presence.step(now);
      next = Math.min(next, presence.nextAt());
    }
    for (const job of jobs.values()) {
      if (keyed(job) && !job.readingKeys && now >= job.keysAt) readKeys(job);
      if (keyed(job) && !job.readingKeys) next = Math.min(next, job.keysAt);
      for (const unit of [...job.units.values()]) {
        units.step(unit, now);
        next = Math.min(next, units.nextLook(unit));
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
      if (spec.intervalMs !== undefined && !(Number.isInteger(spec.intervalMs) && spec.intervalMs > 0))
        throw new RangeError(`job ${spec.name}: intervalMs must be a positive integer`);
      if (spec.leaseMs !== undefined && !(Number.isInteger(spec.leaseMs) && spec.leaseMs >= 50))
        throw new RangeError(`job ${spec.name}: leaseMs must be an integer of at least 50`);
      const job: Job = {
        spec,
        leaseMs: spec.leaseMs ?? options.leaseMs,
        units: new Map(),
        keysAt: 0,
        readingKeys: false,
      };
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
        const all = allUnits();
        for (const unit of all) unit.abort?.abort(new Error('the kernel is stopping'));
        const runs = all.flatMap((u) => (u.running ? [u.running] : []));
        if (!(await within(Promise.allSettled([...runs, ...inflight]), until))) {
          logger.warn(
            { jobs: all.filter((u) => u.running).map((u) => u.job.spec.name) },
            'jobs still running at shutdown; their leases are left to lapse',
          );
        }
        const releases = all.flatMap((u) => (u.lease && !u.running && !u.busy ? [units.release(u, u.lease)] : []));
        for (const lease of presence.leases()) releases.push(releaseLease(db, lease).then(() => undefined));
        await within(
          Promise.allSettled(releases).then(() => outbox.flush()),
          until,
        );
      })();
      return stopped;
    },
  };
}
