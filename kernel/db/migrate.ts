import type { Knex } from 'knex';
import type { Migration } from '../types.js';

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
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${TABLE} (id serial PRIMARY KEY, name varchar(255), batch integer, migration_time timestamptz)`);
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} ("index" serial PRIMARY KEY, is_locked integer)`);
    await trx.raw(`INSERT INTO ${LOCK_TABLE} (is_locked) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM ${LOCK_TABLE})`);
  });
}

/** knex's lock protocol: the one row flips from 0 to 1; a second instance's flip waits for or misses it. */
async function takeLock(db: Knex | Knex.Transaction): Promise<void> {
  const taken = (await db.raw(`UPDATE ${LOCK_TABLE} SET is_locked = 1 WHERE is_locked = 0 RETURNING "index"`)) as { rows: unknown[] };
  if (taken.rows.length === 0) throw new MigrationLockHeld();
}

async function releaseLock(db: Knex | Knex.Transaction): Promise<void> {
  await db.raw(`UPDATE ${LOCK_TABLE} SET is_locked = 0`);
}

async function record(db: Knex | Knex.Transaction, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const batch = (await db.raw(`SELECT coalesce(max(batch), 0) + 1 AS batch FROM ${TABLE}`)) as { rows: { batch: number }[] };
  await db(TABLE).insert(keys.map((name) => ({ name, batch: batch.rows[0]?.batch ?? 1, migration_time: new Date() })));
}

/** A run of migrations that each run in a transaction: all of them in one, with their records. */
async function runInOneTransaction(knex: Knex, run: Keyed[]): Promise<string[]> {
  return knex.transaction(async (trx) => {
    await takeLock(trx);
    // Read again under the lock: an instance that held it before may have applied some.
    const applied = await appliedNames(trx);
    const todo = run.filter((m) => !applied.has(m.key));
    for (const { migration } of todo) await migration.up(trx);
    await record(trx, todo.map((m) => m.key));
    await releaseLock(trx);
    return todo.map((m) => m.key);
  });
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
  const [, applied] = (await knex.migrate.latest({ migrationSource: source, tableName: TABLE, disableMigrationsListValidation: true })) as [number, string[]];
  return applied;
}

/**
 * Runs every owner's migrations in order (owners in dependency order, each owner's list in its
 * declared order). Names are `<owner>/<name>`, so each plugin owns its own; a disabled plugin's
 * applied migrations are simply not listed. Kept few round trips, since every start runs it:
 * an up-to-date database costs one query; pending migrations run in as few transactions as
 * they allow (every consecutive transactional one in one transaction with its records), under
 * the lock row of knex's migrator, whose tables and protocol these are, so instances starting
 * together apply each migration once.
 */
export async function runMigrations(knex: Knex, owners: readonly OwnedMigrations[]): Promise<string[]> {
  const all: Keyed[] = owners.flatMap(({ owner, migrations }) => migrations.map((migration) => ({ key: `${owner}/${migration.name}`, migration })));
  const applied = await appliedOrNone(knex);
  const pending = all.filter((m) => !applied.has(m.key));
  if (pending.length === 0) return [];
  await ensureTables(knex);
  const done: string[] = [];
  try {
    let run: Keyed[] = [];
    for (const entry of pending) {
      if (entry.migration.transaction !== false) {
        run.push(entry);
        continue;
      }
      if (run.length > 0) done.push(...(await runInOneTransaction(knex, run)));
      run = [];
      done.push(...(await runAlone(knex, entry)));
    }
    if (run.length > 0) done.push(...(await runInOneTransaction(knex, run)));
    return done;
  } catch (err) {
    if (!(err instanceof MigrationLockHeld)) throw err;
    return [...done, ...(await runWithKnexMigrator(knex, all))];
  }
}
