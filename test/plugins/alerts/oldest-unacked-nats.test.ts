import { expect } from 'chai';
import { oldestUnacked } from '../../../plugins/streams/alert-signals.js';
import type { TestKernel } from '../../support/kernel.js';
import { startNatsKernel, stopNatsKernel } from '../streams/nats-support.js';

describe('alerts: oldest_unacked_seconds on the nats streams backend', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startNatsKernel();
  });
  after(() => stopNatsKernel(tk));

  it("measures a consumer behind in one partition whose committed offset is another partition's (JetStream numbers the stream's partitions together)", async () => {
    expect(
      (await tk.request('POST', '/streams', { body: { id: 'unacked', name: 'unacked', partitions: 2 } })).status,
    ).to.equal(201);
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const res = await tk.request('POST', '/streams/unacked/messages', {
      body: { messages: [...keys, ...keys].map((key) => ({ key, value: key })) },
    });
    expect(res.status, res.text).to.equal(201);
    const sent = res.body.messages as Array<{ partition: number; offset: number }>;
    // The next offset after a partition's first message that belongs to the other partition: where a consumer that read that message commits.
    const first = sent.find(
      (m, i) => sent[i + 1] !== undefined && (sent[i + 1] as { partition: number }).partition !== m.partition,
    ) as { partition: number; offset: number };
    expect(
      sent.some((m) => m.partition === first.partition && m.offset > first.offset + 1),
      'an unread message after the gap',
    ).to.equal(true);
    const commit = await tk.request('POST', '/streams/unacked/consumers/reader/offsets', {
      body: { offsets: [{ partition: first.partition, offset: first.offset + 1 }] },
    });
    expect(commit.status, commit.text).to.be.oneOf([200, 204]);
    const measured = await oldestUnacked.measure(
      tk.kernel.database.knex,
      'default',
      { stream: 'unacked' },
      new Date(Date.now() + 60_000),
    );
    expect(measured).to.have.length(1);
    expect(measured[0]?.value).to.be.within(59, 120);
  });
});
