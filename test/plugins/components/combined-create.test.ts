import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * A create is a combined write: its answer is made before the statement is sent, from what it
 * writes, not read back. It must be the row the database then holds, byte for byte.
 */
describe('components: a create answers the row it stores', function () {
  this.timeout(60_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('answers what GET then reads (config in jsonb key order, defaults filled in), as one statement', async () => {
    const statements: string[] = [];
    const see = (q: { sql: string }) => statements.push(q.sql);
    tk.kernel.database.knex.on('query', see);
    const created = await tk.request('POST', '/components', {
      body: {
        id: 'ordered',
        name: 'Ordered',
        type: 'passthrough',
        tags: ['b', 'a'],
        config: { zeta: 1, a: { yy: [3, { q: 1, p: 2 }], x: null }, '10': 'ten', é: 'accent', e: 'plain', bb: 1.5 },
      },
      headers: { 'idempotency-key': 'ordered-1' },
    });
    tk.kernel.database.knex.removeListener('query', see);
    expect(created.status).to.equal(201);
    expect(statements.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.deep.equal([]);
    expect(statements.filter((sql) => /INSERT INTO components/.test(sql))).to.have.length(1);
    const read = await tk.request('GET', '/components/ordered');
    expect(created.text).to.equal(read.text);
    const duplicate = await tk.request('POST', '/components', {
      body: { id: 'ordered', name: 'Again', type: 'passthrough' },
    });
    expect(duplicate.status).to.equal(409);
    expect(duplicate.body.error.code).to.equal('duplicate_identifier');
  });
});
