import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import type { Database } from '../../../kernel/db/connect.js';
import { LeaseLostError } from '../../../kernel/jobs/runner.js';
import {
  counter,
  cuttable,
  instance,
  openKernelDatabase,
  overlaps,
  recorder,
  sleep,
  type Instance,
} from './helpers.js';
import { until } from '../../support/poll.js';

// Two runners on one database, in one process: on PGlite that is the only way to share a
// database; on PostgreSQL the same holds across processes (see two-kernels.test.ts).
describe('job runner: two instances on one database', function () {
  this.timeout(60_000);
  let database: Database & { url?: string };
  const started: Instance[] = [];
  const start = async (holder: string, options: Parameters<typeof instance>[2] = {}) => {
    const i = await instance(database, holder, options);
    started.push(i);
    return i;
  };

  // One database for the suite; every test names its own jobs.
  before(async () => {
    database = await openKernelDatabase();
  });
  afterEach(async () => {
    for (const i of started.splice(0)) await i.stop();
  });
  after(() => database.close());

  const holderOf = (i: Instance, name: string, key?: string) => i.runner.leases.holderOf(name, key);

  it('runs a scheduled job on exactly one instance at a time', async () => {
    const log = recorder();
    const [a, b] = [await start('a'), await start('b')];
    for (const i of [a, b]) {
      i.runner.register({ name: 'test.tick', intervalMs: 40, run: (ctx) => log.run(ctx, () => sleep(25, ctx.signal)) });
      i.runner.start();
    }
    await until(async () => log.runs.filter((r) => r.end !== undefined).length >= 10, 20_000);
    expect(overlaps(log.runs)).to.deep.equal([]);
    expect(new Set(log.runs.map((r) => r.holder)).size).to.equal(1);
  });

  it('moves the job to the other instance when its holder can no longer renew, aborting the run it had going', async () => {
    const log = recorder();
    const reasons: unknown[] = [];
    const link = cuttable(database.knex);
    const a = await start('a', { db: link.db });
    // Each run lasts until its lease is lost: only the signal ends it.
    const spec = {
      name: 'test.long',
      intervalMs: 50,
      run: (ctx: Parameters<typeof log.run>[0]) =>
        log.run(ctx, async () => {
          await sleep(60_000, ctx.signal);
          reasons.push(ctx.signal.reason);
        }),
    };
    a.runner.register(spec);
    a.runner.start();
    await until(async () => log.runs.some((r) => r.holder === 'a'), 10_000);
    const b = await start('b');
    b.runner.register(spec);
    b.runner.start();

    // On a loaded machine a renewal can come back late and count as a loss before the cut too.
    const lostBefore = await counter(a.metrics, 'kernel_job_leases_lost_total', { job: 'test.long' });
    link.cut();
    const cutAt = performance.now();
    await until(async () => log.runs.some((r) => r.holder === 'b'), 10_000);
    const first = log.runs.filter((r) => r.holder === 'a').at(-1);
    const moved = log.runs.find((r) => r.holder === 'b');
    expect(first).to.include({ aborted: true });
    expect(reasons.at(-1)).to.be.instanceOf(LeaseLostError);
    expect(moved!.epoch).to.equal(first!.epoch + 1);
    // The lease lapses at most lease_ms (500) after the last renewal before the cut; a second of slack for a loaded machine.
    expect(moved!.start - cutAt).to.be.below(500 + 1000);
    expect(overlaps(log.runs)).to.deep.equal([]);
    expect(await counter(a.metrics, 'kernel_job_leases_lost_total', { job: 'test.long' })).to.equal(lostBefore + 1);
    expect(await holderOf(b, 'test.long')).to.deep.equal({ holder: 'b', epoch: moved!.epoch });
  });

  it('never overlaps a job with itself, and runs asked for during a run coalesce into one more', async () => {
    const log = recorder();
    const a = await start('a');
    let release: () => void = () => undefined;
    a.runner.register({
      name: 'test.slow',
      run: (ctx) => log.run(ctx, () => new Promise<void>((resolve) => (release = resolve))),
    });
    a.runner.start();
    a.runner.trigger('test.slow');
    await until(async () => log.runs.length === 1, 5000);
    for (let i = 0; i < 5; i++) a.runner.trigger('test.slow');
    await sleep(200);
    expect(log.runs).to.have.length(1);
    release();
    await until(async () => log.runs.length === 2, 5000);
    release();
    await sleep(200);
    expect(log.runs).to.have.length(2);
    expect(overlaps(log.runs)).to.deep.equal([]);
  });

  it('runs a triggered job only when asked, on the instance holding it, even when asked on the other', async () => {
    const log = recorder();
    const [a, b] = [await start('a'), await start('b')];
    for (const i of [a, b]) {
      i.runner.register({ name: 'test.on-demand', run: (ctx) => log.run(ctx) });
      i.runner.start();
    }
    await until(async () => (await holderOf(a, 'test.on-demand')) !== null, 5000);
    const { holder } = (await holderOf(a, 'test.on-demand'))!;
    await sleep(300);
    expect(log.runs).to.deep.equal([]);
    const other = holder === 'a' ? b : a;
    other.runner.trigger('test.on-demand');
    await until(async () => log.runs.length === 1, 5000);
    expect(log.runs[0]?.holder).to.equal(holder);
    await sleep(300);
    expect(log.runs).to.have.length(1);
  });

  it('shares the keys of a keyed job between the instances, one lease per key', async () => {
    const log = recorder();
    const keys = ['p0', 'p1', 'p2', 'p3'];
    const [a, b] = [await start('a'), await start('b')];
    for (const i of [a, b]) {
      i.runner.register({
        name: 'test.partitions',
        keys: () => keys,
        intervalMs: 50,
        run: (ctx) => log.run(ctx, () => sleep(10, ctx.signal)),
      });
      i.runner.start();
    }
    const holders = async () =>
      Promise.all(keys.map(async (key) => (await holderOf(a, 'test.partitions', key))?.holder));
    const split = async () => {
      const now = await holders();
      return now.filter((h) => h === 'a').length === 2 && now.filter((h) => h === 'b').length === 2;
    };
    await until(split, 15_000);
    const since = performance.now();
    await until(async () => keys.every((key) => log.runs.some((r) => r.key === key && r.start > since)), 10_000);
    expect(overlaps(log.runs)).to.deep.equal([]);
  });

  it("counts toward a keyed job's share only the instances that run that job", async () => {
    const log = recorder();
    const keys = ['q0', 'q1', 'q2', 'q3'];
    const [a, b] = [await start('a'), await start('b')];
    // a runs the job; b runs only another keyed job (a kernel without the plugin that contributes the first).
    a.runner.register({
      name: 'test.owned',
      keys: () => keys,
      intervalMs: 50,
      run: (ctx) => log.run(ctx, () => sleep(10, ctx.signal)),
    });
    b.runner.register({
      name: 'test.other',
      keys: () => ['x'],
      intervalMs: 50,
      run: (ctx) => log.run(ctx, () => sleep(10, ctx.signal)),
    });
    a.runner.start();
    b.runner.start();
    const allHeldByA = async () =>
      (await Promise.all(keys.map(async (key) => (await holderOf(a, 'test.owned', key))?.holder))).every(
        (h) => h === 'a',
      );
    await until(allHeldByA, 15_000);
    // Held for good, not only until b's presence is counted: b's presence renews every third of the lease.
    await sleep(1500);
    expect(await allHeldByA()).to.equal(true);
  });

  it('logs and counts a failing run, retries it with backoff, and keeps running the other jobs', async () => {
    const log = recorder();
    const a = await start('a');
    let attempts = 0;
    a.runner.register({
      name: 'test.failing',
      run: () => {
        attempts += 1;
        throw new Error('broken on purpose');
      },
    });
    a.runner.register({ name: 'test.healthy', intervalMs: 50, run: (ctx) => log.run(ctx) });
    a.runner.start();
    a.runner.trigger('test.failing');
    await until(async () => attempts >= 2, 10_000);
    expect(
      await counter(a.metrics, 'kernel_job_runs_total', { job: 'test.failing', outcome: 'failure' }),
    ).to.be.at.least(2);
    await until(async () => log.runs.length >= 3, 5000);
    expect(
      await counter(a.metrics, 'kernel_job_runs_total', { job: 'test.healthy', outcome: 'success' }),
    ).to.be.at.least(3);
  });

  it('backs a failing run off 1 s, then 2 s, doubling, even when its interval is shorter', async () => {
    const a = await start('a');
    const at: number[] = [];
    a.runner.register({
      name: 'test.backoff',
      intervalMs: 100,
      run: () => {
        at.push(performance.now());
        throw new Error('broken on purpose');
      },
    });
    a.runner.start();
    await until(() => at.length >= 3, 10_000);
    const [first, second, third] = at as [number, number, number];
    expect(second - first, 'the first retry waits a second, not the 100 ms interval').to.be.within(900, 1900);
    expect(third - second, 'the second waits twice as long').to.be.within(1900, 3500);
  });

  it('on stop, aborts the running job, waits for it, and releases its lease so the other instance takes over at once', async () => {
    const log = recorder();
    // A lease of a minute: only the release (and the event telling of it) lets the other take over within the test.
    const [a, b] = [await start('a', { leaseMs: 60_000 }), await start('b', { leaseMs: 60_000 })];
    const spec = {
      name: 'test.handover',
      intervalMs: 50,
      run: (ctx: Parameters<typeof log.run>[0]) => log.run(ctx, () => sleep(60_000, ctx.signal)),
    };
    a.runner.register(spec);
    a.runner.start();
    await until(async () => log.runs.length === 1, 5000);
    b.runner.register(spec);
    b.runner.start();
    await sleep(200);
    expect(log.runs).to.have.length(1);

    await a.stop();
    expect(log.runs[0]).to.include({ holder: 'a', aborted: true });
    expect(log.runs[0]?.end).to.be.a('number');
    await until(async () => log.runs.some((r) => r.holder === 'b'), 5000);
    expect(overlaps(log.runs)).to.deep.equal([]);
  });
});
