import { expect } from 'chai';
import type { Database } from '../../../kernel/db/connect.js';
import { createLeases } from '../../../kernel/jobs/leases.js';
import type { Lease, Leases } from '../../../kernel/jobs/types.js';
import { CombinedWrite, RunInTransaction } from '../../../kernel/db/combined-write.js';
import { onPostgres } from '../../support/kernel.js';
import { openKernelDatabase, sleep } from './helpers.js';
import { until } from '../../support/poll.js';

describe('leases in the database', () => {
  let database: Database;
  let a: Leases;
  let b: Leases;
  before(async () => {
    database = await openKernelDatabase();
    a = createLeases(database.knex, 'instance-a');
    b = createLeases(database.knex, 'instance-b');
  });
  after(() => database.close());

  const lapsed = (name: string, key = '') => until(async () => (await a.holderOf(name, key)) === null, 5000);

  it('gives a free lease to one instance and refuses it to another while it lasts', async () => {
    const lease = await a.acquire('exclusive', '', 60_000);
    expect(lease).to.deep.equal({ name: 'exclusive', key: '', holder: 'instance-a', epoch: 1 });
    expect(await b.acquire('exclusive', '', 60_000)).to.equal(null);
    expect(await b.holderOf('exclusive')).to.deep.equal({ holder: 'instance-a', epoch: 1 });
  });

  it('keeps the epoch while its holder renews it', async () => {
    const first = await a.acquire('renewed', '', 60_000);
    expect(await a.renew(first!, 60_000)).to.equal(true);
    expect(await a.acquire('renewed', '', 60_000)).to.deep.include({ epoch: 1 });
  });

  it('lets another instance take a lapsed lease with the next epoch, and the former holder can tell it lost it', async () => {
    const old = await a.acquire('lapsing', '', 150);
    expect(old?.epoch).to.equal(1);
    expect(await lapsed('lapsing')).to.equal(true);
    const taken = await b.acquire('lapsing', '', 60_000);
    expect(taken).to.deep.include({ holder: 'instance-b', epoch: 2 });
    expect(await a.renew(old!, 60_000)).to.equal(false);
    expect(await a.release(old!)).to.equal(false);
    expect(await a.acquire('lapsing', '', 60_000)).to.equal(null);
    expect(await b.holderOf('lapsing')).to.deep.equal({ holder: 'instance-b', epoch: 2 });
  });

  it('counts its own lapsed lease taken again as a new epoch', async () => {
    await a.acquire('retaken', '', 150);
    expect(await lapsed('retaken')).to.equal(true);
    expect(await a.acquire('retaken', '', 60_000)).to.deep.include({ epoch: 2 });
  });

  it('frees a released lease at once for another instance', async () => {
    const lease = await a.acquire('released', '', 60_000);
    expect(await a.release(lease!)).to.equal(true);
    expect(await a.holderOf('released')).to.equal(null);
    expect(await b.acquire('released', '', 60_000)).to.deep.include({ holder: 'instance-b', epoch: 2 });
  });

  it('keeps one lease per key: partitions of one name are held independently', async () => {
    const p0 = await a.acquire('partitions', '0', 60_000);
    const p1 = await b.acquire('partitions', '1', 60_000);
    expect([p0?.epoch, p1?.epoch]).to.deep.equal([1, 1]);
    expect(await b.acquire('partitions', '0', 60_000)).to.equal(null);
    expect(await a.acquire('partitions', '1', 60_000)).to.equal(null);
    expect(await a.holderOf('partitions', '0')).to.deep.include({ holder: 'instance-a' });
    expect(await a.holderOf('partitions', '1')).to.deep.include({ holder: 'instance-b' });
    expect(await a.holderOf('partitions')).to.equal(null);
  });

  it("fences work: true in the holder's transaction while it holds the lease, false once another took it over", async () => {
    const mine = await a.acquire('fenced', '', 150);
    expect(await database.knex.transaction((trx) => a.fence(trx, mine!))).to.equal(true);
    expect(await lapsed('fenced')).to.equal(true);
    await b.acquire('fenced', '', 60_000);
    expect(await database.knex.transaction((trx) => a.fence(trx, mine!))).to.equal(false);
  });

  it('fences a combined write: its parts commit while the lease is ours; once another took it over, nothing is written and it asks for the transaction', async () => {
    await database.knex.raw('CREATE TABLE IF NOT EXISTS lease_fenced_probe (note text NOT NULL)');
    const written = async () =>
      ((await database.knex('lease_fenced_probe').select('note')) as Array<{ note: string }>).map((r) => r.note);
    const fencedWrite = (lease: Lease, note: string) => {
      const write = new CombinedWrite();
      write.add('probe', 'INSERT INTO lease_fenced_probe (note) VALUES (?)', [note]);
      a.fenceIn(write, lease);
      return write.commit(database.knex);
    };
    const mine = await a.acquire('fenced-combined', '', 150);
    await fencedWrite(mine!, 'while held');
    expect(await written()).to.deep.equal(['while held']);
    expect(await lapsed('fenced-combined')).to.equal(true);
    await b.acquire('fenced-combined', '', 60_000);
    const refused = await fencedWrite(mine!, 'after the takeover').catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(RunInTransaction);
    expect(await written()).to.deep.equal(['while held']);
  });

  (onPostgres ? it : it.skip)(
    'makes a takeover wait until the fenced transaction of the former holder ends (PostgreSQL)',
    async () => {
      const mine = await a.acquire('blocking', '', 150);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let fenced = false;
      const work = database.knex.transaction(async (trx) => {
        fenced = await a.fence(trx, mine!);
        await held;
      });
      await until(async () => fenced, 5000);
      expect(await lapsed('blocking')).to.equal(true);
      let takenOver = false;
      const takeover = b.acquire('blocking', '', 60_000).then((lease) => {
        takenOver = true;
        return lease;
      });
      await sleep(300);
      expect(takenOver).to.equal(false);
      release();
      await work;
      expect(await takeover).to.deep.include({ holder: 'instance-b', epoch: 2 });
    },
  );
});
