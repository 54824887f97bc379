import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { readFileSync } from 'node:fs';
import { ApiError, registerErrorCodes } from '../../../kernel/errors.js';
import { fromRoot } from '../../../kernel/paths.js';
import { runQuery } from '../../../plugins/sql/run-query.js';
import { onPostgres } from '../../support/kernel.js';

describe('sql console: the host deadline', function () {
  this.timeout(60_000);
  if (!onPostgres) return;
  let admin: Knex;
  before(() => {
    // No kernel boots here: the plugin's error codes join the catalogue as a boot would add them.
    registerErrorCodes('sql', JSON.parse(readFileSync(fromRoot('manifests', 'sql.json'), 'utf8')).error_codes);
    admin = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL as string, pool: { min: 0, max: 2 } });
  });
  after(() => admin?.destroy());

  it('cancels the backend itself (pg_cancel_backend) when the database would let the query run on', async () => {
    // statement_timeout 0 turns the database's own limit off, so only the host deadline can stop it.
    const marker = `host-deadline-${Date.now()}`;
    const started = Date.now();
    let error: unknown;
    try {
      await runQuery(
        admin,
        { connectionString: process.env.DATABASE_URL as string },
        `select pg_sleep(30), '${marker}'`,
        [],
        10,
        { statementTimeoutMs: 0, hostGraceMs: 700, maxRows: 10 },
      );
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).code).to.equal('query_timeout');
    expect(Date.now() - started).to.be.below(10_000);
    const still = await admin.raw(
      "select count(*)::int as n from pg_stat_activity where query like ? and state = 'active' and pid <> pg_backend_pid()",
      [`%${marker}%`],
    );
    expect(still.rows[0].n).to.equal(0);
  });
});
