import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { connectDatabase, type Database } from '../../../kernel/db/connect.js';
import { runMigrations, startMigrations, type OwnedMigrations } from '../../../kernel/db/migrate.js';
import type { Migration } from '../../../kernel/types.js';
import { onPostgres, startKernel } from '../../support/kernel.js';

/** A fresh database: PGlite in memory, or a new schema with DATABASE_URL (dropped on close). */
async function freshDatabase(schema = `t_${randomBytes(6).toString('hex')}`): Promise<Database> {
  const database = await connectDatabase(
    onPostgres
      ? { url: process.env.DATABASE_URL as string, schema, pool_max: 5, ready_timeout_ms: 2000 }
      : { data_dir: 'memory', pool_max: 1, ready_timeout_ms: 2000 },
  );
  return {
    ...database,
    async close() {
      if (onPostgres) await database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
      await database.close();
    },
  };
}

function table(name: string): Migration {
  return { name: `001_${name}`, up: (db) => db.raw(`CREATE TABLE ${name} (id int PRIMARY KEY)`) };
}

function countQueries(knex: Knex): () => number {
  let count = 0;
  knex.on('query', () => (count += 1));
  return () => count;
}

describe('migrations', function () {
  this.timeout(120_000);

  it('apply each pending migration once and record it; an up-to-date database costs one query', async () => {
    const database = await freshDatabase();
    try {
      const owners: OwnedMigrations[] = [
        { owner: 'a', migrations: [table('m_one'), table('m_two')] },
        { owner: 'b', migrations: [table('m_three')] },
      ];
      expect(await runMigrations(database.knex, owners)).to.deep.equal(['a/001_m_one', 'a/001_m_two', 'b/001_m_three']);
      const recorded = await database.knex('kernel_migrations').orderBy('id').select('name', 'batch');
      expect(recorded).to.deep.equal([
        { name: 'a/001_m_one', batch: 1 },
        { name: 'a/001_m_two', batch: 1 },
        { name: 'b/001_m_three', batch: 1 },
      ]);
      const queries = countQueries(database.knex);
      expect(await runMigrations(database.knex, owners)).to.deep.equal([]);
      expect(queries()).to.equal(1);
      // A later migration runs in a batch of its own; the lock row is left free.
      expect(
        await runMigrations(database.knex, [...owners, { owner: 'c', migrations: [table('m_four')] }]),
      ).to.deep.equal(['c/001_m_four']);
      expect((await database.knex('kernel_migrations').where({ name: 'c/001_m_four' }).first('batch')).batch).to.equal(
        2,
      );
      expect((await database.knex('kernel_migrations_lock').select('is_locked')).map((r) => r.is_locked)).to.deep.equal(
        [0],
      );
    } finally {
      await database.close();
    }
  });

  it('run the transactional migrations of one start in one transaction: a failure applies none of them', async () => {
    const database = await freshDatabase();
    try {
      const failing: Migration = { name: '002_fails', up: (db) => db.raw('SELECT * FROM no_such_table') };
      const owners: OwnedMigrations[] = [{ owner: 'a', migrations: [table('m_kept_out'), failing] }];
      let error: unknown;
      await runMigrations(database.knex, owners).catch((err: unknown) => (error = err));
      expect(String(error)).to.include('no_such_table');
      expect(await database.knex.schema.hasTable('m_kept_out')).to.equal(false);
      expect(await database.knex('kernel_migrations').select('name')).to.deep.equal([]);
      expect((await database.knex('kernel_migrations_lock').select('is_locked')).map((r) => r.is_locked)).to.deep.equal(
        [0],
      );
    } finally {
      await database.close();
    }
  });

  it('run a migration that cannot run in a transaction on its own, between the batches around it', async () => {
    const database = await freshDatabase();
    try {
      const concurrently: Migration = {
        name: '002_index',
        transaction: false,
        up: (db) => db.raw('CREATE INDEX CONCURRENTLY m_first_id ON m_first (id)'),
      };
      const owners: OwnedMigrations[] = [
        { owner: 'a', migrations: [table('m_first'), concurrently, table('m_after')] },
      ];
      expect(await runMigrations(database.knex, owners)).to.deep.equal([
        'a/001_m_first',
        'a/002_index',
        'a/001_m_after',
      ]);
      const index = await database.knex.raw("SELECT 1 FROM pg_indexes WHERE indexname = 'm_first_id'");
      expect(index.rows).to.have.length(1);
    } finally {
      await database.close();
    }
  });

  it('apply each migration once when instances start together on one database', async function () {
    if (!onPostgres) this.skip();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const first = await freshDatabase(schema);
    const second = await connectDatabase({
      url: process.env.DATABASE_URL as string,
      schema,
      pool_max: 5,
      ready_timeout_ms: 2000,
    });
    try {
      const owners: OwnedMigrations[] = [{ owner: 'a', migrations: [table('m_x'), table('m_y')] }];
      const [a, b] = await Promise.all([runMigrations(first.knex, owners), runMigrations(second.knex, owners)]);
      expect([...a, ...b].sort()).to.deep.equal(['a/001_m_x', 'a/001_m_y']);
      expect(await first.knex('kernel_migrations').count({ n: '*' })).to.deep.equal([{ n: '2' }]);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it("build a concurrent index in the start's one transaction on a new database, and concurrently on one already in use", async () => {
    const concurrently = (table: string): Migration => ({
      name: `002_${table}_index`,
      transaction: false,
      up: (db) => db.raw(`CREATE INDEX CONCURRENTLY ${table}_id ON ${table} (id)`),
      upInTransaction: (db) => db.raw(`CREATE INDEX ${table}_id ON ${table} (id)`),
    });
    const database = await freshDatabase();
    try {
      // New: nothing applied yet, so one batch holds all three (a run split around the index would make two).
      await runMigrations(database.knex, [
        { owner: 'a', migrations: [table('m_new'), concurrently('m_new'), table('m_next')] },
      ]);
      expect(await database.knex('kernel_migrations').orderBy('id').select('name', 'batch')).to.deep.equal([
        { name: 'a/001_m_new', batch: 1 },
        { name: 'a/002_m_new_index', batch: 1 },
        { name: 'a/001_m_next', batch: 1 },
      ]);
      // In use: the table may be large and written to, so the index is built concurrently, alone.
      await runMigrations(database.knex, [
        { owner: 'a', migrations: [table('m_new'), concurrently('m_new'), table('m_next')] },
        { owner: 'b', migrations: [table('m_old'), concurrently('m_old')] },
      ]);
      expect(
        await database.knex('kernel_migrations').where('name', 'like', 'b/%').orderBy('id').select('name', 'batch'),
      ).to.deep.equal([
        { name: 'b/001_m_old', batch: 2 },
        { name: 'b/002_m_old_index', batch: 3 },
      ]);
      const indexes = await database.knex.raw(
        "SELECT indexname FROM pg_indexes WHERE indexname IN ('m_new_id', 'm_old_id') ORDER BY 1",
      );
      expect(indexes.rows.map((r: { indexname: string }) => r.indexname)).to.deep.equal(['m_new_id', 'm_old_id']);
    } finally {
      await database.close();
    }
  });

  it('apply owners handed over while the run is under way, in one transaction; an aborted run applies none', async () => {
    const database = await freshDatabase();
    try {
      const run = startMigrations(database.knex);
      run.add({ owner: 'a', migrations: [table('m_early')] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      run.add({ owner: 'b', migrations: [table('m_late')] });
      expect(await run.finish()).to.deep.equal(['a/001_m_early', 'b/001_m_late']);
      expect((await database.knex('kernel_migrations').select('batch')).map((r) => r.batch)).to.deep.equal([1, 1]);

      const aborted = startMigrations(database.knex);
      aborted.add({ owner: 'c', migrations: [table('m_dropped')] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await aborted.abort();
      expect(await database.knex.schema.hasTable('m_dropped')).to.equal(false);
      expect(await database.knex('kernel_migrations').where('name', 'like', 'c/%').select('name')).to.deep.equal([]);
      expect((await database.knex('kernel_migrations_lock').select('is_locked')).map((r) => r.is_locked)).to.deep.equal(
        [0],
      );
    } finally {
      await database.close();
    }
  });

  it('run statements that answer nothing before a later statement that reads what they made, and name the migration a failing one belongs to', async () => {
    const database = await freshDatabase();
    try {
      const readsBack: Migration = {
        name: '001_reads_back',
        async up(db) {
          await db.schema.createTable('m_read', (t) => t.integer('id').primary());
          await db.raw('ALTER TABLE m_read ADD COLUMN label text');
          await db('m_read').insert({ id: 1, label: 'one' });
          const rows = await db('m_read').select('label');
          if (rows[0]?.label !== 'one') throw new Error('the row written in the migration was not read back');
        },
      };
      const failing: Migration = { name: '002_duplicate', up: (db) => db.raw('CREATE TABLE m_read (id int)') };
      let error: unknown;
      await runMigrations(database.knex, [{ owner: 'a', migrations: [readsBack, failing] }]).catch(
        (err: unknown) => (error = err),
      );
      expect(String(error)).to.include('a/002_duplicate').and.to.include('already exists');
      expect(await database.knex.schema.hasTable('m_read')).to.equal(false);
      expect(await runMigrations(database.knex, [{ owner: 'a', migrations: [readsBack] }])).to.deep.equal([
        'a/001_reads_back',
      ]);
      expect(await database.knex('m_read').select('id', 'label')).to.deep.equal([{ id: 1, label: 'one' }]);
    } finally {
      await database.close();
    }
  });

  it('leave a server database unmigrated when a plugin fails to load during the boot', async function () {
    if (!onPostgres) this.skip();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    // A plugin whose module fails only after a while: the kernel's migrations are under way by then.
    const dir = mkdtempSync(join(tmpdir(), 'broken-plugin-'));
    writeFileSync(
      join(dir, 'index.mjs'),
      "await new Promise((resolve) => setTimeout(resolve, 300));\nthrow new Error('broken plugin module');\n",
    );
    let error: unknown;
    await startKernel({ plugins: ['system', 'components', { module: dir }] }, { schema }).catch(
      (err: unknown) => (error = err),
    );
    rmSync(dir, { recursive: true, force: true });
    expect(String(error)).to.include('broken plugin module');
    const database = await freshDatabase(schema);
    try {
      expect(await database.knex.schema.hasTable('kernel_secrets')).to.equal(false);
      expect(await database.knex.schema.hasTable('components')).to.equal(false);
    } finally {
      await database.close();
    }
  });
});
