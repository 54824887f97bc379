import { expect } from 'chai';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { relayToDatabase, skipWithoutServer, type CuttableRelay } from '../../support/relay.js';
import { PLUGINS, as, headerAuthPlugin } from '../../kernel/pipeline/helpers.js';
import { writeRecord } from './records.js';
import { until } from '../../support/poll.js';

async function scrape(k: TestKernel, name: string): Promise<number | undefined> {
  const res = await k.request('GET', '/metrics');
  expect(res.status).to.equal(200);
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(res.text);
  return match ? Number(match[1]) : undefined;
}

describe('audit sealer metrics on GET /metrics', function () {
  this.timeout(60_000);
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
  });
  after(() => k.close());

  it('reports the age of the oldest unsealed record, 0 once it is chained, and counts the records chained', async () => {
    // The sweep runs once as its lease is first taken; a record written before that run would be
    // chained by it, so the record this test leaves behind is written after it.
    await until(
      async () =>
        /^kernel_job_runs_total\{job="audit\.sweep",outcome="success"\} [1-9]/m.test(
          (await k.request('GET', '/metrics')).text,
        ),
      30_000,
    );
    // Left unsealed an hour ago, as by an instance that died between its commit and the seal.
    await writeRecord(k.kernel.database.knex, 'lagging', 'left-an-hour-ago', '1 hour');
    // The age is measured at most once a second, and a scrape waits for the query at most that long.
    const inRange = (age: number | undefined) => age !== undefined && age >= 3599 && age <= 3700;
    await until(async () => inRange(await scrape(k, 'audit_unsealed_age_seconds')), 10_000);
    expect(await scrape(k, 'audit_records_sealed_total')).to.equal(0);

    expect(
      (
        await k.request('POST', '/notes', {
          body: { id: 'next', title: 'Pokes the sealer' },
          headers: as('alice', 'lagging'),
        })
      ).status,
    ).to.equal(201);
    // Up to 30 s: an open transaction elsewhere on the same PostgreSQL server holds sealing back (support/sealed.ts).
    await until(async () => (await scrape(k, 'audit_records_sealed_total')) === 2, 30_000);
    // The age is measured at most once a second, whoever scrapes.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await scrape(k, 'audit_unsealed_age_seconds')).to.equal(0);
    expect(await scrape(k, 'audit_seal_failures_total')).to.equal(0);
  });
});

describe('audit sealer metrics when the database goes away', function () {
  this.timeout(60000);
  let relay: CuttableRelay;
  let k: TestKernel;

  before(async function () {
    if (!onPostgres) return skipWithoutServer(this);
    let url: string;
    ({ relay, url } = await relayToDatabase());
    k = await startKernel(
      { plugins: PLUGINS, database: { url, ready_timeout_ms: 500 } },
      { plugins: [headerAuthPlugin] },
    );
  });
  after(async () => {
    await k?.close();
    await relay?.cut().catch(() => undefined);
  });

  it('keeps answering, and lets the age grow while it cannot be measured, so an alert on it fires', async () => {
    expect(await scrape(k, 'audit_unsealed_age_seconds')).to.equal(0);
    await relay.cut();
    const started = Date.now();
    await until(async () => ((await scrape(k, 'audit_unsealed_age_seconds')) ?? 0) >= 3, 15000);
    // Each scrape waited at most about a second for the database, not for the pool's timeout.
    expect(Date.now() - started).to.be.below(10000);
    await relay.open();
    await until(async () => (await scrape(k, 'audit_unsealed_age_seconds')) === 0, 20000);
  });
});
