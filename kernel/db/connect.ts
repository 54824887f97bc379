import { existsSync, mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { fromRoot } from '../paths.js';
import { openEmbedded, stageNewestTemplate, templateWorkSettled } from './embedded.js';
import { pgliteWasmModule } from './pglite-code.js';
import type { Logger } from 'pino';
import type { KernelConfig } from '../config/types.js';
import { type DatabaseCopy, noDatabaseCopy } from './copy.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { withSimpleTransactionControl } from './embedded-client.js';

export interface Database {
  knex: Knex;
  /** `postgres` for a server, `embedded` for PGlite. */
  kind: 'postgres' | 'embedded';
  /** Set on a newly created embedded cluster: keeps it, once migrated, as the template of the next (db/embedded.ts). */
  keepMigrated?: () => Promise<void>;
  /** Copies of the embedded database (copy.ts); none on a server. */
  copy: DatabaseCopy;
  close(): Promise<void>;
}

/** The embedded database's directory (relative to the project root); undefined when it lives in memory. */
function dataDirPath(dataDir: string | undefined): string | undefined {
  if (!dataDir || dataDir === 'memory') return undefined;
  return isAbsolute(dataDir) ? dataDir : fromRoot(dataDir);
}

/** The embedded database's directory, created if missing; undefined when it lives in memory. */
function embeddedDirectory(dataDir: string | undefined): string | undefined {
  const dir = dataDirPath(dataDir);
  if (dir) mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Starts what opening the database needs and the plugins do not decide, so that it runs while
 * the main thread loads the plugins: for the embedded one, compiling PGlite's WebAssembly (on
 * V8's background threads) and, for a new data directory, copying the migrated template most
 * likely to be the plugins' (on the thread pool; db/staging.ts). Nothing for a server (a
 * kernel on PostgreSQL never loads PGlite).
 */
export function prefetchDatabase(config: KernelConfig['database']): void {
  if (config.url) return;
  void pgliteWasmModule();
  const dir = embeddedDirectory(config.data_dir);
  // A cluster in a schema of its own is not made from a migrated template (connectDatabase).
  if (dir && !config.schema) stageNewestTemplate(dir);
}

/**
 * Whether connecting creates the database: true for an embedded one in memory or in a directory
 * without a cluster yet, false for a directory that has one, undefined for a server or a schema
 * of an existing cluster (known only once queried).
 */
export function databaseIsNew(config: KernelConfig['database']): boolean | undefined {
  if (config.url) return undefined;
  const dir = dataDirPath(config.data_dir);
  if (!dir || !existsSync(join(dir, 'PG_VERSION'))) return true;
  return config.schema ? undefined : false;
}

/**
 * One SQL dialect everywhere: PostgreSQL. A URL selects a server through `pg`; otherwise the
 * embedded PGlite runs in-process, which holds exactly one connection (knex-pglite pins the pool).
 * PGlite has no lock of its own: two processes on one data directory would both write and one's
 * writes would be lost, so the directory is locked for this process until close (or its exit).
 */
export async function connectDatabase(
  config: KernelConfig['database'],
  logger?: Logger,
  options: { migrationKey?: string } = {},
): Promise<Database> {
  const schema = config.schema;
  // knex prints connection trouble to the console itself; route it to the structured log instead.
  const log = logger
    ? {
        warn: (m: unknown) => logger.warn({ knex: String(m) }, 'database warning'),
        error: (m: unknown) => logger.error({ knex: String(m) }, 'database error'),
        deprecate: (m: unknown) => logger.warn({ knex: String(m) }, 'database deprecation'),
        debug: (m: unknown) => logger.debug({ knex: String(m) }, 'database debug'),
      }
    : undefined;
  let knex: Knex;
  let kind: Database['kind'];
  let lock: DataDirLock | undefined;
  let keepMigrated: Database['keepMigrated'];
  let copy: DatabaseCopy = noDatabaseCopy;
  let started: Promise<void> | undefined;
  if (config.url) {
    kind = 'postgres';
    knex = knexFactory({
      client: 'pg',
      // Neither a connect nor a wait for a pooled connection outlasts the readiness deadline: while
      // the server is unreachable a call fails within it (503 unavailable), it never hangs.
      connection: { connectionString: config.url, connectionTimeoutMillis: config.ready_timeout_ms },
      pool: { min: 0, max: config.pool_max },
      acquireConnectionTimeout: config.ready_timeout_ms,
      ...(log ? { log } : {}),
      ...(schema ? { searchPath: [schema] } : {}),
    });
  } else {
    kind = 'embedded';
    const dir = embeddedDirectory(config.data_dir);
    lock = dir ? lockDataDir(dir) : undefined;
    // Loaded only here: PGlite's half-megabyte of JavaScript is no part of a kernel on PostgreSQL.
    const { default: ClientPgLite } = await import('knex-pglite');
    // A cluster in a schema of its own is not the one the migrated template was made from.
    const embedded = await openEmbedded(dir, schema ? undefined : options.migrationKey);
    keepMigrated = embedded.keepMigrated;
    copy = {
      available: true,
      take: async () => ({ archive: await embedded.pglite.dumpDataDir('none'), wasmModule: await pgliteWasmModule() }),
    };
    started = embedded.pglite.waitReady;
    knex = knexFactory({
      client: withSimpleTransactionControl(
        ClientPgLite as unknown as Parameters<typeof withSimpleTransactionControl>[0],
      ) as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: { pglite: embedded.pglite },
      acquireConnectionTimeout: 60_000,
      ...(log ? { log } : {}),
      ...(schema ? { searchPath: [schema] } : {}),
    } as Knex.Config);
  }
  const close = async (): Promise<void> => {
    try {
      await knex.destroy();
      // A template still being finished is finished: its folder would otherwise stay half made.
      if (kind === 'embedded') await templateWorkSettled();
    } finally {
      // Only once the database is closed may another process open the directory.
      lock?.release();
    }
  };
  try {
    // PGlite goes on starting after its constructor returns; awaited here, its start is the
    // connect phase's (kernel/boot/timing.ts), not hidden in the first query of the migrations.
    await started;
    if (schema) await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return { knex, kind, close, copy, ...(keepMigrated ? { keepMigrated } : {}) };
}
