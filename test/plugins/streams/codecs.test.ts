import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { upperTextCodecPlugin } from './upper-text-codec.js';

describe('streams with a codec (through the streams.codecs extension point)', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel(
      { plugins: ['system', 'streams'], auth: { mode: 'none' } },
      { plugins: [upperTextCodecPlugin] },
    );
  });
  after(() => tk?.close());

  it('accepts a stream naming a codec the resolver knows, and refuses one it does not', async () => {
    expect(
      (await tk.request('POST', '/streams', { body: { id: 'shouts', name: 'shouts', codec: 'upper' } })).status,
    ).to.equal(201);
    const unknown = await tk.request('POST', '/streams', {
      body: { id: 'whispers', name: 'whispers', codec: 'lower' },
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details[0].pointer).to.equal('/codec');
  });

  it('encodes published values with the codec and shows them decoded', async () => {
    const res = await tk.request('POST', '/streams/shouts/messages', {
      body: { messages: [{ value: 'hello world' }, { body_base64: Buffer.from('RAW 1').toString('base64') }] },
    });
    expect(res.status, res.text).to.equal(201);
    const [first, second] = res.body.messages;
    const shown = await tk.request('GET', `/messages/${first.id}`);
    expect(shown.body).to.include({ value: 'HELLO WORLD', content_type: 'text/plain; charset=us-ascii', size: 11 });
    expect(shown.body).to.not.have.property('body_base64');
    const body = await fetch(`${tk.url}/messages/${first.id}/body`);
    expect(await body.text()).to.equal('HELLO WORLD');
    const read = await tk.request('GET', '/streams/shouts/messages');
    expect(read.body.items.map((m: any) => m.value)).to.deep.equal(['HELLO WORLD', 'RAW 1']);
    expect(
      (await tk.request('GET', `/messages?stream=shouts`)).body.items.find((m: any) => m.id === second.id).value,
    ).to.equal('RAW 1');
  });

  it('refuses a value or a body that does not fit the codec, naming the message and the problem', async () => {
    const value = await tk.request('POST', '/streams/shouts/messages', {
      body: { messages: [{ value: 'ok' }, { value: 42 }] },
    });
    expect(value.status).to.equal(400);
    expect(value.body.error.details[0].pointer).to.equal('/messages/1/value');
    expect(value.body.error.message).to.match(/Message 1: .*a string/);
    const body = await tk.request('POST', '/streams/shouts/messages', {
      body: { messages: [{ body_base64: Buffer.from('lower').toString('base64') }] },
    });
    expect(body.status).to.equal(400);
    expect(body.body.error.details[0].pointer).to.equal('/messages/0/body_base64');
    const raw = await tk.request('POST', '/streams/shouts/messages', {
      raw: Buffer.from('lower'),
      contentType: 'application/octet-stream',
    });
    expect(raw.status).to.equal(400);
    expect(raw.body.error.message).to.match(/upper-text/);
    expect((await tk.request('GET', '/streams/shouts/messages')).body.items).to.have.length(2);
  });
});
