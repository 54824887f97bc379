import { expect } from 'chai';
import { SharedReads } from '../../../kernel/db/shared-read.js';

describe('SharedReads', () => {
  it('makes one read for the callers of a key in the same turn, and a new one for a caller after it was sent', async () => {
    const shared = new SharedReads<string, number>();
    let reads = 0;
    const load = async () => {
      reads += 1;
      return reads;
    };
    const together = await Promise.all([shared.read('a', load), shared.read('a', load), shared.read('b', load)]);
    expect(together[0]).to.equal(together[1]);
    expect(reads).to.equal(2);
    // Asked while a read of the key is under way (sent, not answered): a read of its own, started after it asked.
    let release: () => void = () => undefined;
    const slow = shared.read('a', () => new Promise<number>((resolve) => (release = () => resolve(-1))));
    await new Promise((resolve) => setImmediate(resolve));
    const later = shared.read('a', load);
    release();
    expect(await slow).to.equal(-1);
    expect(await later).to.equal(3);
  });

  it('hands a failed read to each of its callers', async () => {
    const shared = new SharedReads<string, number>();
    const failing = () => Promise.reject(new Error('gone'));
    const outcomes = await Promise.allSettled([shared.read('a', failing), shared.read('a', failing)]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });
});
