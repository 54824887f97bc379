import { expect } from 'chai';
import { countCut } from '../../../plugins/streams/nats-count-cut.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('nats retention by count: the cut in a partition', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' } });
  });
  after(async () => tk?.close());

  it('is the max-th newest offset of the partition, as a sort of all its messages gives, when concurrent publishes interleaved their offsets and retention emptied places', async () => {
    const db = tk.kernel.database.knex;
    const stream = { tenantId: 'cut-tenant', uid: 'cut-uid' };
    // 60 runs of 1 to 12 messages over 3 partitions, handed out offsets in an interleaved order (as
    // concurrent publishers get them from JetStream), a few already removed (null); a seeded shuffle.
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const sizes = Array.from({ length: 60 }, () => 1 + Math.floor(random() * 12));
    const owners = sizes.flatMap((size, run) => Array.from({ length: size }, () => run));
    for (let i = owners.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      if (Math.abs((owners[i] as number) - (owners[j] as number)) < 6)
        [owners[i], owners[j]] = [owners[j] as number, owners[i] as number];
    }
    const runs = sizes.map(() => ({ partitions: [] as number[], offsets: [] as Array<number | null> }));
    owners.forEach((run, i) => {
      const r = runs[run] as { partitions: number[]; offsets: Array<number | null> };
      r.partitions.push(Math.floor(random() * 3));
      r.offsets.push(random() < 0.1 ? null : 100 + i);
    });
    await db('streams_message_runs').insert(
      runs.map((r, run) => {
        const all = owners.flatMap((o, i) => (o === run ? [100 + i] : []));
        return {
          tenant_id: stream.tenantId,
          last_id: `msg_cut${String(run).padStart(3, '0')}fff`,
          first_id: `msg_cut${String(run).padStart(3, '0')}000`,
          stream_uid: stream.uid,
          stream: 'cut',
          published_at: new Date(),
          first_offset: Math.min(...all),
          last_offset: Math.max(...all),
          partitions: r.partitions,
          offsets: r.offsets,
        };
      }),
    );
    for (let partition = 0; partition < 3; partition++) {
      const held = runs
        .flatMap((r) => r.offsets.filter((o, n) => o !== null && r.partitions[n] === partition) as number[])
        .sort((a, b) => b - a);
      for (const max of [1, 2, 5, 13, 40, held.length - 1, held.length, held.length + 1]) {
        expect(await countCut(db, stream, partition, max), `partition ${partition}, max ${max}`).to.equal(
          held[max - 1],
        );
      }
    }
  });
});
