import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * On the embedded database a publish takes its stream from a cache (the process is the
 * database's one user); on a server it reads the stream each time. Either way the first publish
 * after a change of the stream — partitions, codec, a delete and a new stream under the same id —
 * goes by the changed stream.
 */
describe('streams: a publish right after its stream changed', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'codecs', 'streams'], auth: { mode: 'none' } });
    expect((await tk.request('POST', '/streams', { body: { id: 'changing', name: 'Changing' } })).status).to.equal(201);
  });
  after(() => tk?.close());

  const publish = (messages: unknown[]) => tk.request('POST', '/streams/changing/messages', { body: { messages } });

  it('uses the partitions a PATCH just added', async () => {
    const first = await publish([{ value: 0 }]);
    expect(first.status).to.equal(201);
    expect(first.body.messages[0].partition).to.equal(0);
    expect((await tk.request('PATCH', '/streams/changing', { body: { partitions: 4 } })).status).to.equal(200);
    const spread = await publish(Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: i })));
    expect(spread.status).to.equal(201);
    expect(new Set(spread.body.messages.map((m: { partition: number }) => m.partition)).size).to.be.greaterThan(1);
  });

  it('checks values against the codec a PATCH just set', async () => {
    expect((await publish([{ value: 'any text' }])).status).to.equal(201);
    const codec = await tk.request('POST', '/codecs', {
      body: {
        id: 'numbers',
        name: 'Numbers',
        kind: 'json',
        schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      },
    });
    expect(codec.status, codec.text).to.equal(201);
    expect((await tk.request('PATCH', '/streams/changing', { body: { codec: 'numbers' } })).status).to.equal(200);
    expect((await publish([{ value: 'any text' }])).status).to.equal(400);
    expect((await publish([{ value: { n: 1 } }])).status).to.equal(201);
  });

  it('answers 404 once the stream is deleted, and publishes to the new stream made under its id', async () => {
    expect((await publish([{ value: { n: 2 } }])).status).to.equal(201);
    expect((await tk.request('DELETE', '/streams/changing')).status).to.equal(204);
    expect((await publish([{ value: { n: 3 } }])).status).to.equal(404);
    expect(
      (await tk.request('POST', '/streams', { body: { id: 'changing', name: 'Changing again' } })).status,
    ).to.equal(201);
    const fresh = await publish([{ value: 'no codec now' }]);
    expect(fresh.status).to.equal(201);
    const read = await tk.request('GET', '/streams/changing/messages?partition=0&from_offset=0');
    expect(read.status).to.equal(200);
    expect(read.body.items.map((m: { id: string }) => m.id)).to.deep.equal([fresh.body.messages[0].id]);
  });
});
