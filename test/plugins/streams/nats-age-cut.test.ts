import { expect } from 'chai';
import { ageCut } from '../../../plugins/streams/nats-age-cut.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('nats retention by age: the cut in a partition', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' } });
  });
  after(async () => tk?.close());

  it("is the first offset published at or after the cutoff (or one past the last when none is), as a scan of all the partition's messages gives, when concurrent publishes interleaved their offsets and times and retention emptied places", async () => {
    const db = tk.kernel.database.knex;
    const stream = { tenantId: 'age-tenant', uid: 'age-uid' };
    // 80 runs of 1 to 12 messages over 4 partitions (partition 3 only in the first runs, partition 4
    // none), offsets handed out interleaved (concurrent publishers), publish times mostly rising
    // but shuffled among neighbours (an older run may hold higher offsets), a few places removed.
    let seed = 11;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const sizes = Array.from({ length: 80 }, () => 1 + Math.floor(random() * 12));
    const owners = sizes.flatMap((size, run) => Array.from({ length: size }, () => run));
    for (let i = owners.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      if (Math.abs((owners[i] as number) - (owners[j] as number)) < 6)
        [owners[i], owners[j]] = [owners[j] as number, owners[i] as number];
    }
    // One long publish spanning most of the stream, its first message early: the young run holding the cut may end last.
    owners[3] = 79;
    const base = Date.parse('2026-01-01T00:00:00Z');
    const times = sizes.map((_, run) => base + (run + Math.floor(random() * 9) - 4) * 60_000);
    const runs = sizes.map(() => ({ partitions: [] as number[], offsets: [] as Array<number | null> }));
    owners.forEach((run, i) => {
      const r = runs[run] as { partitions: number[]; offsets: Array<number | null> };
      r.partitions.push(run < 10 && random() < 0.5 ? 3 : Math.floor(random() * 3));
      r.offsets.push(random() < 0.1 ? null : 100 + i);
    });
    await db('streams_message_runs').insert(
      runs.flatMap((r, run) => {
        const all = owners.flatMap((o, i) => (o === run ? [100 + i] : []));
        if (all.length === 0) return [];
        return [
          {
            tenant_id: stream.tenantId,
            last_id: `msg_age${String(run).padStart(3, '0')}fff`,
            first_id: `msg_age${String(run).padStart(3, '0')}000`,
            stream_uid: stream.uid,
            stream: 'age',
            published_at: new Date(times[run] as number),
            first_offset: Math.min(...all),
            last_offset: Math.max(...all),
            partitions: r.partitions,
            offsets: r.offsets,
          },
        ];
      }),
    );
    const scanned = async (partition: number, cutoff: Date): Promise<number | undefined> => {
      const { rows } = (await db.raw(
        'SELECT min("offset") FILTER (WHERE published_at >= ?) AS first_young, max("offset") AS last FROM streams_message_positions WHERE tenant_id = ? AND stream_uid = ? AND partition = ?',
        [cutoff, stream.tenantId, stream.uid, partition],
      )) as { rows: Array<{ first_young: string | null; last: string | null }> };
      const edge = rows[0];
      if (!edge || edge.last === null) return undefined;
      return edge.first_young === null ? Number(edge.last) + 1 : Number(edge.first_young);
    };
    let checked = 0;
    for (let partition = 0; partition <= 4; partition++) {
      for (const minutes of [-10, 0, 1, 5, 17, 30, 41, 60, 77, 79, 90]) {
        const cutoff = new Date(base + minutes * 60_000);
        const expected = await scanned(partition, cutoff);
        expect(await ageCut(db, stream, partition, cutoff), `partition ${partition}, cutoff +${minutes} min`).to.equal(
          expected,
        );
        if (expected !== undefined) checked++;
      }
    }
    expect(checked).to.be.greaterThan(30);
  });
});
