import type { Knex } from 'knex';
import type { Migration } from '../types.js';
import { batchStatements } from './statement-batch.js';

export interface OwnedMigrations {
  owner: string;
  migrations: readonly Migration[];
}

const TABLE = 'kernel_migrations';
const LOCK_TABLE = 'kernel_migrations_lock';
/** Serialises the creation of the two tables by instances starting together (any constant of ours). */
const CREATE_LOCK = 0x6b6d6967;

interface Keyed {
  key: string;
  migration: Migration;
}

/** Held by another instance (or left held by a crashed one): knex's migrator then waits or reports it. */
class MigrationLockHeld extends Error {}

async function appliedNames(db: Knex | Knex.Transaction): Promise<Set<string>> {
  const rows = (await db.raw(`SELECT name FROM ${TABLE}`)) as { rows: { name: string }[] };
  return new Set(rows.rows.map((r) => r.name));
}

/** The applied names, or none when the table does not exist yet (a new database). */
async function appliedOrNone(knex: Knex): Promise<Set<string>> {
  try {
    return await appliedNames(knex);
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return new Set();
    throw err;
  }
}

/** The bookkeeping tables, in the shape knex's migrator made them (databases it migrated keep working). */
async function ensureTables(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [CREATE_LOCK]);
    await trx.raw(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (id serial PRIMARY KEY, name varchar(255), batch integer, migration_time timestamptz)`,
    );
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} ("index" serial PRIMARY KEY, is_locked integer)`);
    await trx.raw(`INSERT INTO ${LOCK_TABLE} (is_locked) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM ${LOCK_TABLE})`);
  });
}

/** knex's lock protocol: the one row flips from 0 to 1; a second instance's flip waits for or misses it. */
async function takeLock(db: Knex | Knex.Transaction): Promise<void> {
  const taken = (await db.raw(`UPDATE ${LOCK_TABLE} SET is_locked = 1 WHERE is_locked = 0 RETURNING "index"`)) as {
    rows: unknown[];
  };
  if (taken.rows.length === 0) throw new MigrationLockHeld();
}

async function releaseLock(db: Knex | Knex.Transaction): Promise<void> {
  await db.raw(`UPDATE ${LOCK_TABLE} SET is_locked = 0`);
}

async function record(db: Knex | Knex.Transaction, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const batch = (await db.raw(`SELECT coalesce(max(batch), 0) + 1 AS batch FROM ${TABLE}`)) as {
    rows: { batch: number }[];
  };
  await db(TABLE).insert(keys.map((name) => ({ name, batch: batch.rows[0]?.batch ?? 1, migration_time: new Date() })));
}

/** A migration as a start applies it: its key and the function that applies it. */
type Apply = (db: Knex) => Promise<void>;

/**
 * The start's one transaction, open under the lock row from its first pending migration to the
 * commit that records them all. `fresh`: no migration had been applied when the lock was taken,
 * so every table the start touches is created in this transaction (and empty).
 */
interface OpenRun {
  readonly fresh: boolean;
  apply(entry: Keyed, up: Apply): Promise<void>;
  commit(): Promise<string[]>;
  rollback(): Promise<void>;
}

async function openRun(knex: Knex): Promise<OpenRun> {
  const trx = await knex.transaction();
  let applied: Set<string>;
  try {
    await takeLock(trx);
    // Read again under the lock: an instance that held it before may have applied some.
    applied = await appliedNames(trx);
  } catch (err) {
    await trx.rollback().catch(() => undefined);
    throw err;
  }
  // Fewer round trips where the driver allows several statements in one query (a server).
  const batch =
    (knex.client as { config: { client?: unknown } }).config.client === 'pg' ? batchStatements(trx) : undefined;
  const todo: string[] = [];
  return {
    fresh: applied.size === 0,
    async apply(entry, up) {
      if (applied.has(entry.key)) return;
      try {
        await up(trx);
        await batch?.flush();
      } catch (err) {
        if (err instanceof Error) err.message = `migration ${entry.key}: ${err.message}`;
        throw err;
      }
      todo.push(entry.key);
    },
    async commit() {
      await record(trx, todo);
      await releaseLock(trx);
      await trx.commit();
      return todo;
    },
    async rollback() {
      batch?.discard();
      await trx.rollback().catch(() => undefined);
    },
  };
}

/** A migration that cannot run in a transaction (CREATE INDEX CONCURRENTLY): under the lock row, committed. */
async function runAlone(knex: Knex, { key, migration }: Keyed): Promise<string[]> {
  await takeLock(knex);
  try {
    if ((await appliedNames(knex)).has(key)) return [];
    await migration.up(knex);
    await record(knex, [key]);
    return [key];
  } finally {
    await releaseLock(knex);
  }
}

/** knex's migrator, as before: used when another instance holds the lock (it waits for it, or reports it). */
async function runWithKnexMigrator(knex: Knex, all: Keyed[]): Promise<string[]> {
  const byKey = new Map(all.map((entry) => [entry.key, entry.migration]));
  const source: Knex.MigrationSource<string> = {
    getMigrations: async () => all.map((entry) => entry.key),
    getMigrationName: (key) => key,
    getMigration: async (key) => {
      const migration = byKey.get(key);
      if (!migration) throw new Error(`unknown migration ${key}`);
      return {
        up: (db: Knex) => migration.up(db),
        down: (db: Knex) => (migration.down ? migration.down(db) : Promise.resolve()),
        ...(migration.transaction === false ? { config: { transaction: false } } : {}),
      };
    },
  };
  const [, applied] = (await knex.migrate.latest({
    migrationSource: source,
    tableName: TABLE,
    disableMigrationsListValidation: true,
  })) as [number, string[]];
  return applied;
}

/** Owners handed over one at a time: a start migrates while it is still loading the next plugins. */
export interface MigrationRun {
  /** Adds an owner's migrations after those added before (owners in dependency order). */
  add(owner: OwnedMigrations): void;
  /** No owner follows: resolves with the names this run applied, once every one is applied. */
  finish(): Promise<string[]>;
  /** The start failed elsewhere: the open transaction is rolled back, so none of its migrations stays. */
  abort(): Promise<void>;
}

class RunAborted extends Error {}

/** The entries handed over so far, read in order by the run as they come. */
class Feed {
  private readonly entries: Keyed[] = [];
  private wake: (() => void) | undefined;
  private state: 'open' | 'ended' | 'aborted' = 'open';

  push(entries: Keyed[]): void {
    this.entries.push(...entries);
    this.wake?.();
  }

  close(state: 'ended' | 'aborted'): void {
    if (this.state === 'open') this.state = state;
    this.wake?.();
  }

  async next(): Promise<Keyed | undefined> {
    for (;;) {
      if (this.state === 'aborted') throw new RunAborted();
      const entry = this.entries.shift();
      if (entry) return entry;
      if (this.state === 'ended') return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/**
 * Applies migrations as their owners are handed over (owners in dependency order, each owner's
 * list in its declared order). Names are `<owner>/<name>`, so each plugin owns its own; a
 * disabled plugin's applied migrations are simply not listed. Kept few round trips, since every
 * start runs it: an up-to-date database costs one query; pending migrations run in as few
 * transactions as they allow (every consecutive transactional one in one transaction with its
 * records, their result-less statements sent together: db/statement-batch.ts), under the lock
 * row of knex's migrator, whose tables and protocol these are, so instances starting together
 * apply each migration once. A migration that cannot run in a transaction runs alone between
 * them, or, on a database with no migration applied yet, its `upInTransaction` inside the one.
 */
export function startMigrations(knex: Knex): MigrationRun {
  const feed = new Feed();
  const done = run(knex, feed);
  // Observed at finish or abort; until then a failure must not count as unhandled.
  done.catch(() => undefined);
  return {
    add: ({ owner, migrations }) =>
      feed.push(migrations.map((migration) => ({ key: `${owner}/${migration.name}`, migration }))),
    finish() {
      feed.close('ended');
      return done;
    },
    async abort() {
      feed.close('aborted');
      await done.catch(() => undefined);
    },
  };
}

async function run(knex: Knex, feed: Feed): Promise<string[]> {
  const seen: Keyed[] = [];
  const done: string[] = [];
  let open: OpenRun | undefined;
  try {
    const applied = await appliedOrNone(knex);
    let tablesReady = false;
    for (let entry = await feed.next(); entry; entry = await feed.next()) {
      seen.push(entry);
      if (applied.has(entry.key)) continue;
      if (!tablesReady) {
        await ensureTables(knex);
        tablesReady = true;
      }
      const { migration } = entry;
      if (migration.transaction !== false || migration.upInTransaction) {
        open ??= await openRun(knex);
        if (migration.transaction !== false) {
          await open.apply(entry, (db) => migration.up(db));
          continue;
        }
        if (open.fresh && migration.upInTransaction) {
          const upInTransaction = migration.upInTransaction.bind(migration);
          await open.apply(entry, upInTransaction);
          continue;
        }
      }
      if (open) done.push(...(await open.commit()));
      open = undefined;
      done.push(...(await runAlone(knex, entry)));
    }
    if (open) done.push(...(await open.commit()));
    open = undefined;
    return done;
  } catch (err) {
    await open?.rollback();
    if (!(err instanceof MigrationLockHeld)) throw err;
    // knex's migrator takes the whole list: every owner, once all are handed over.
    for (let entry = await feed.next(); entry; entry = await feed.next()) seen.push(entry);
    return [...done, ...(await runWithKnexMigrator(knex, seen))];
  }
}

/** Runs every owner's migrations (see startMigrations), all handed over at once. */
export async function runMigrations(knex: Knex, owners: readonly OwnedMigrations[]): Promise<string[]> {
  const migrating = startMigrations(knex);
  for (const owner of owners) migrating.add(owner);
  return migrating.finish();
}
