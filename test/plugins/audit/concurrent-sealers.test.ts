import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, headerAuthPlugin } from '../../kernel/pipeline/helpers.js';
import { untilSealed } from '../../support/sealed.js';
import { verifyTrail } from './records.js';

const TENANT = 'contested';

/** Records written straight into the trail, in one transaction: no instance is told of them. */
const WRITE_MANY = `
  INSERT INTO audit_records (tenant_id, id, at, operation, method, path, resource_id, status, outcome, request_id, actor_type, fields, detail, severity, transport)
  SELECT ?, gen_random_uuid(), now(), 'createNote', 'POST', '/notes', 'bulk-' || i, 201, 'success', 'req-bulk-' || i, 'human', '{}', '{}', 'info', 'http'
    FROM generate_series(1, ?) AS i`;

async function scrape(k: TestKernel, name: string): Promise<number> {
  const res = await k.request('GET', '/metrics');
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(res.text);
  return Number(match?.[1]);
}

describe('two instances sealing the same tenant at once', function () {
  this.timeout(120_000);
  const schema = `t_seal_${randomBytes(5).toString('hex')}`;
  let one: TestKernel;
  let two: TestKernel;

  before(async function () {
    if (!onPostgres) {
      console.log('      (skipped: two kernels cannot share the embedded database; runs when DATABASE_URL is set)');
      return this.skip();
    }
    one = await startKernel({ plugins: PLUGINS }, { schema, plugins: [headerAuthPlugin] });
    two = await startKernel({ plugins: PLUGINS }, { schema, plugins: [headerAuthPlugin] });
  });
  after(() => closeSharingSchema(schema, one, two));

  it('builds one dense chain, each record sealed exactly once, a lost race read again rather than failed', async () => {
    const db = one.kernel.database.knex;
    let total = 0;
    for (let round = 0; round < 4; round++) {
      // Three batches' worth, so each instance's sealing takes several turns on the head.
      for (let t = 0; t < 3; t++) await db.raw(WRITE_MANY, [TENANT, 800]);
      total += 2400;
      // Both instances seal at once: verification chains first, and each write asks its instance to chain shortly.
      const writes = [one, two].flatMap((k, n) =>
        Array.from({ length: 10 }, (_, i) =>
          k.request('POST', '/notes', {
            body: { id: `n${round}-${n}-${i}`, title: 'x' },
            headers: as('alice', TENANT),
          }),
        ),
      );
      const answers = await Promise.all([verifyTrail(one, TENANT), verifyTrail(two, TENANT), ...writes]);
      expect(answers.slice(2).map((res) => res.status)).to.deep.equal(writes.map(() => 201));
      total += writes.length;
    }

    const report = await untilSealed(() => verifyTrail(two, TENANT));
    expect(report.body).to.include({ valid: true, records: total, unsealed: 0 });
    const [seals] = (
      await db.raw(
        'SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs, min(seq)::int AS first, max(seq)::int AS last FROM audit_seals WHERE tenant_id = ?',
        [TENANT],
      )
    ).rows;
    expect(seals).to.deep.equal({ n: total, seqs: total, first: 1, last: total });
    const [unmatched] = (
      await db.raw(
        `SELECT count(*)::int AS n FROM audit_records r
        WHERE r.tenant_id = ? AND (SELECT count(*) FROM audit_seals s WHERE s.tenant_id = r.tenant_id AND s.xact = r.xact AND s.record_id = r.id) <> 1`,
        [TENANT],
      )
    ).rows;
    expect(unmatched).to.deep.equal({ n: 0 });

    // Between them they sealed each record once, and neither had an attempt fail: a race lost to the other was
    // read again at once. Which instance sealed how many is timing (one may win every race), so it is not asserted.
    const sealedBy = [await scrape(one, 'audit_records_sealed_total'), await scrape(two, 'audit_records_sealed_total')];
    expect(sealedBy[0]! + sealedBy[1]!).to.equal(total);
    expect([
      await scrape(one, 'audit_seal_failures_total'),
      await scrape(two, 'audit_seal_failures_total'),
    ]).to.deep.equal([0, 0]);
  });
});
