import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { connectDatabase, type Database } from '../../../kernel/db/connect.js';
import { runMigrations } from '../../../kernel/db/migrate.js';
import { kernelMigrations } from '../../../kernel/db/kernel-migrations.js';
import { createEventBus, type EventBus } from '../../../kernel/events/bus.js';
import { createJobRunner, type JobRunner } from '../../../kernel/jobs/runner.js';
import type { JobContext } from '../../../kernel/jobs/types.js';
import { onPostgres } from '../../support/kernel.js';

export const silent = pino({ level: 'silent' });

/** The kernel's tables on a fresh database: PGlite in memory, or a new schema with DATABASE_URL. */
export async function openKernelDatabase(): Promise<Database & { url?: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = onPostgres
    ? { url: process.env.DATABASE_URL as string, schema, pool_max: 10, ready_timeout_ms: 1000 }
    : { data_dir: 'memory', pool_max: 10, ready_timeout_ms: 1000 };
  const database = await connectDatabase(config);
  await runMigrations(database.knex, [{ owner: 'kernel', migrations: kernelMigrations }]);
  return {
    ...database,
    ...(onPostgres ? { url: config.url } : {}),
    async close() {
      if (onPostgres) await database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
      await database.close();
    },
  };
}

/**
 * A handle on the same database whose statements fail while it is cut: an instance that can no
 * longer reach the database (a network partition, a frozen process) and so stops renewing
 * without releasing anything.
 */
export function cuttable(knex: Knex): { db: Knex; cut(): void } {
  let isCut = false;
  const db = new Proxy(knex, {
    get(target, prop, receiver) {
      if (prop === 'raw')
        return (...args: Parameters<Knex['raw']>) =>
          isCut ? Promise.reject(new Error('the database is unreachable')) : target.raw(...args);
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db, cut: () => (isCut = true) };
}

/** One run of a job as the test saw it (times from one monotonic clock: every instance is in this process). */
export interface RunRecord {
  holder: string;
  key: string;
  epoch: number;
  start: number;
  end?: number;
  aborted?: boolean;
}

/** Records runs; `body` is what the run does between its start and end. */
export function recorder(): { runs: RunRecord[]; run(context: JobContext, body?: () => Promise<void>): Promise<void> } {
  const runs: RunRecord[] = [];
  return {
    runs,
    async run(context, body) {
      const record: RunRecord = {
        holder: context.lease.holder,
        key: context.key,
        epoch: context.lease.epoch,
        start: performance.now(),
      };
      runs.push(record);
      try {
        await body?.();
      } finally {
        record.end = performance.now();
        record.aborted = context.signal.aborted;
      }
    },
  };
}

/** Pairs of runs (of one key) that were running at the same time. */
export function overlaps(runs: readonly RunRecord[]): Array<[RunRecord, RunRecord]> {
  const found: Array<[RunRecord, RunRecord]> = [];
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i] as RunRecord;
      const b = sorted[j] as RunRecord;
      if (a.key === b.key && b.start < (a.end ?? Infinity)) found.push([a, b]);
    }
  }
  return found;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface Instance {
  runner: JobRunner;
  events: EventBus;
  metrics: Registry;
  stop(): Promise<void>;
}

/** One "instance": an event bus and a job runner on the database (or on a cuttable handle of it). */
export async function instance(
  database: Database & { url?: string },
  holder: string,
  options: { db?: Knex; leaseMs?: number; pollMs?: number } = {},
): Promise<Instance> {
  const metrics = new Registry();
  const events = createEventBus({
    database,
    url: database.url,
    logger: silent,
    metrics,
    pollMs: options.pollMs ?? 200,
    stopTimeoutMs: 2000,
  });
  await events.start();
  const runner = createJobRunner({
    db: options.db ?? database.knex,
    logger: silent,
    metrics,
    events,
    leaseMs: options.leaseMs ?? 500,
    stopTimeoutMs: 2000,
    holder,
  });
  return {
    runner,
    events,
    metrics,
    async stop() {
      await runner.stop();
      await events.stop();
    },
  };
}

/** The value of a counter (summed over the given label values) in a registry. */
export async function counter(metrics: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = (await metrics.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as Array<{ value: number; labels: Record<string, string | number> }>;
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}
