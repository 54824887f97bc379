import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import type { Jobs } from '../../../kernel/jobs/types.js';
import type { PluginDefinition } from '../../../kernel/types.js';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { relayToDatabase, type CuttableRelay } from '../../support/relay.js';
import { counter, overlaps, recorder, sleep } from './helpers.js';
import { until } from '../../support/poll.js';

const LEASE_MS = 500;
const log = recorder();

/** A plugin with one scheduled job, as a domain plugin would declare it. */
const probe: PluginDefinition = {
  id: 'probe',
  manifest: {
    id: 'probe',
    version: '1.0.0',
    summary: 'A scheduled job for the tests',
    requires: { services: ['jobs'] },
    routes: [],
  },
  setup(context) {
    const jobs = context.services.jobs as Jobs;
    jobs.register({ name: 'probe.tick', intervalMs: 100, run: (ctx) => log.run(ctx, () => sleep(30, ctx.signal)) });
    return { handlers: {} };
  },
};

describe('a job on two kernels sharing one database', function () {
  this.timeout(60_000);
  const schema = `t_jobs_${randomBytes(5).toString('hex')}`;
  let relay: CuttableRelay;
  let one: TestKernel;
  let two: TestKernel;

  before(async function () {
    if (!onPostgres) {
      console.log(
        '      (skipped: two kernels cannot share the embedded database; runner.test.ts runs two runners on one; runs when DATABASE_URL is set, as .ci/run does)',
      );
      return this.skip();
    }
    let url: string;
    ({ relay, url } = await relayToDatabase());
    const config = { plugins: ['system'], auth: { mode: 'none' }, jobs: { lease_ms: LEASE_MS } };
    // The first kernel reaches the database through a relay the test can cut: a killed holder.
    one = await startKernel({ ...config, database: { url } }, { schema, plugins: [probe] });
    await until(async () => log.runs.length > 0, 10_000);
    two = await startKernel(config, { schema, plugins: [probe] });
  });
  after(async () => {
    await relay?.open();
    await closeSharingSchema(schema, one, two);
    await relay?.cut();
  });

  const holders = () => new Set(log.runs.map((r) => r.holder));

  it('runs the job on exactly one of them at a time', async () => {
    const target = log.runs.length + 10;
    await until(async () => log.runs.filter((r) => r.end !== undefined).length >= target, 20_000);
    expect(holders()).to.deep.equal(new Set([one.kernel.services.jobs.leases.holder]));
    expect(overlaps(log.runs)).to.deep.equal([]);
    const res = await one.request('GET', '/metrics');
    expect(res.text).to.match(/^kernel_job_runs_total\{job="probe\.tick",outcome="success"\} [1-9]/m);
  });

  it('moves the job to the other kernel within the lease time when its holder is cut off, with the next epoch', async () => {
    const first = log.runs.at(-1)!;
    // On a loaded machine a renewal can come back late and count as a loss before the cut too.
    const lostBefore = await counter(one.kernel.services.metrics, 'kernel_job_leases_lost_total', {
      job: 'probe.tick',
    });
    await relay.cut();
    const cutAt = performance.now();
    const survivor = two.kernel.services.jobs.leases.holder;
    await until(async () => log.runs.some((r) => r.holder === survivor), 10_000);
    const moved = log.runs.find((r) => r.holder === survivor)!;
    // The lease lapses at most lease_ms after the holder's last renewal; a second of slack for a loaded machine.
    expect(moved.start - cutAt).to.be.below(LEASE_MS + 1000);
    expect(moved.epoch).to.equal(first.epoch + 1);
    await until(async () => log.runs.filter((r) => r.holder === survivor).length >= 5, 10_000);
    expect(overlaps(log.runs)).to.deep.equal([]);
    expect(await counter(one.kernel.services.metrics, 'kernel_job_leases_lost_total', { job: 'probe.tick' })).to.equal(
      lostBefore + 1,
    );
  });
});
