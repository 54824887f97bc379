import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { connectDatabase, type Database } from '../../../kernel/db/connect.js';
import { runMigrations, type OwnedMigrations } from '../../../kernel/db/migrate.js';
import type { Migration } from '../../../kernel/types.js';
import { onPostgres } from '../../support/kernel.js';

/** A fresh database: PGlite in memory, or a new schema with DATABASE_URL (dropped on close). */
async function freshDatabase(schema = `t_${randomBytes(6).toString('hex')}`): Promise<Database> {
  const database = await connectDatabase(onPostgres ? { url: process.env.DATABASE_URL as string, schema, pool_max: 5, ready_timeout_ms: 2000 } : { data_dir: 'memory', pool_max: 1, ready_timeout_ms: 2000 });
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
      const owners: OwnedMigrations[] = [{ owner: 'a', migrations: [table('m_one'), table('m_two')] }, { owner: 'b', migrations: [table('m_three')] }];
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
      expect(await runMigrations(database.knex, [...owners, { owner: 'c', migrations: [table('m_four')] }])).to.deep.equal(['c/001_m_four']);
      expect((await database.knex('kernel_migrations').where({ name: 'c/001_m_four' }).first('batch')).batch).to.equal(2);
      expect((await database.knex('kernel_migrations_lock').select('is_locked')).map((r) => r.is_locked)).to.deep.equal([0]);
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
      expect((await database.knex('kernel_migrations_lock').select('is_locked')).map((r) => r.is_locked)).to.deep.equal([0]);
    } finally {
      await database.close();
    }
  });

  it('run a migration that cannot run in a transaction on its own, between the batches around it', async () => {
    const database = await freshDatabase();
    try {
      const concurrently: Migration = { name: '002_index', transaction: false, up: (db) => db.raw('CREATE INDEX CONCURRENTLY m_first_id ON m_first (id)') };
      const owners: OwnedMigrations[] = [{ owner: 'a', migrations: [table('m_first'), concurrently, table('m_after')] }];
      expect(await runMigrations(database.knex, owners)).to.deep.equal(['a/001_m_first', 'a/002_index', 'a/001_m_after']);
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
    const second = await connectDatabase({ url: process.env.DATABASE_URL as string, schema, pool_max: 5, ready_timeout_ms: 2000 });
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
});
