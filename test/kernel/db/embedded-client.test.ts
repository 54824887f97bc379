import { expect } from 'chai';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { withSimpleTransactionControl } from '../../../kernel/db/embedded-client.js';

describe('embedded database client: transaction control as simple queries', function () {
  this.timeout(60_000);
  let pglite: PGlite;
  let knex: Knex;
  const simple: string[] = [];

  before(async () => {
    pglite = await PGlite.create();
    const exec = pglite.exec.bind(pglite);
    pglite.exec = (sql: string, options?: Parameters<PGlite['exec']>[1]) => {
      simple.push(sql);
      return exec(sql, options);
    };
    const Client = withSimpleTransactionControl(
      ClientPgLite as unknown as Parameters<typeof withSimpleTransactionControl>[0],
    );
    knex = knexFactory({
      client: Client as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: { pglite },
    } as Knex.Config);
    await knex.raw('CREATE TABLE notes (id int PRIMARY KEY, title text NOT NULL)');
  });
  after(async () => {
    await knex.destroy();
  });
  beforeEach(() => {
    simple.length = 0;
  });

  it('commits a transaction, sending BEGIN and COMMIT the simple way and the insert with its bindings', async () => {
    await knex.transaction(async (trx) => {
      await trx('notes').insert({ id: 1, title: 'kept' });
    });
    expect(await knex('notes').where({ id: 1 }).first()).to.deep.equal({ id: 1, title: 'kept' });
    expect(simple.map((sql) => sql.split(/[\s;]/)[0]?.toUpperCase())).to.deep.equal(['BEGIN', 'COMMIT']);
  });

  it('rolls back a failed transaction and a savepoint inside a kept one', async () => {
    await knex
      .transaction(async (trx) => {
        await trx('notes').insert({ id: 2, title: 'lost' });
        throw new Error('give up');
      })
      .catch(() => undefined);
    expect(await knex('notes').where({ id: 2 }).first()).to.equal(undefined);

    await knex.transaction(async (trx) => {
      await trx('notes').insert({ id: 3, title: 'outer' });
      await trx
        .transaction(async (inner) => {
          await inner('notes').insert({ id: 4, title: 'inner' });
          throw new Error('undo the inner one');
        })
        .catch(() => undefined);
    });
    expect(await knex('notes').whereIn('id', [3, 4]).orderBy('id')).to.deep.equal([{ id: 3, title: 'outer' }]);
    expect(simple.some((sql) => /^ROLLBACK TO SAVEPOINT/i.test(sql))).to.equal(true);
  });

  it('answers a COMMIT that fails (a deferred constraint) as an error, and leaves nothing behind', async () => {
    await knex.raw(
      'CREATE TABLE pairs (id int PRIMARY KEY, other int REFERENCES pairs (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const failed = await knex
      .transaction(async (trx) => {
        await trx('pairs').insert({ id: 1, other: 99 });
      })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    expect(failed?.message).to.match(/foreign key/);
    expect(await knex('pairs')).to.deep.equal([]);
    // The connection is usable after it.
    await knex.transaction(async (trx) => {
      await trx('pairs').insert({ id: 1, other: 1 });
    });
    expect(await knex('pairs').count('* as n').first()).to.deep.equal({ n: 1 });
  });
});
