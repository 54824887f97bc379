import { expect } from 'chai';
import { loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { readEvents, type EventReader } from '../../support/realtime.js';

describe('GET /streams/{id}/tail (server-sent events of new messages)', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let token: string;
  before(async () => {
    // Polling every 10 minutes: a message that arrives within the test came through the wake-up event.
    tk = await startKernel({
      plugins: ['system', 'identity', 'streams'],
      settings: { streams: { tail_poll_ms: 600_000 } },
    });
    token = await loginAdmin(tk);
    for (const id of ['live', 'quiet']) {
      const res = await tk.request('POST', '/streams', { token, body: { id, name: id, partitions: 2 } });
      expect(res.status, res.text).to.equal(201);
    }
  });
  after(() => tk?.close());

  const publish = async (stream: string, messages: unknown[]) => {
    const res = await tk.request('POST', `/streams/${stream}/messages`, { token, body: { messages } });
    expect(res.status, res.text).to.equal(201);
    return res.body.messages as Array<{ id: string; partition: number; offset: number }>;
  };

  async function nextMessage(reader: EventReader): Promise<any> {
    const event = await reader.next();
    expect(event?.event).to.equal('message');
    return { id: event?.id, message: JSON.parse(event?.data as string) };
  }

  it('is authenticated like any read', async () => {
    const anonymous = await readEvents(tk, '/streams/live/tail');
    expect(anonymous.status).to.equal(401);
    const missing = await readEvents(tk, '/streams/absent/tail', token);
    expect(missing.status).to.equal(404);
  });

  it("sends messages published after it opened, and not older ones nor other streams'", async () => {
    await publish('live', [{ value: 'before' }]);
    const reader = await readEvents(tk, '/streams/live/tail', token);
    expect(reader.status).to.equal(200);
    expect(reader.headers.get('content-type')).to.match(/^text\/event-stream/);
    // The tail reads its starting offsets before answering, so what follows is new.
    await publish('quiet', [{ value: 'elsewhere' }]);
    const [sent] = await publish('live', [{ key: 'k', value: { n: 1 } }]);
    const got = await nextMessage(reader);
    expect(got.id).to.equal(`${sent?.partition}:${sent?.offset}`);
    expect(got.message).to.include({ id: sent?.id, stream: 'live', key: 'k' });
    expect(got.message.value).to.deep.equal({ n: 1 });
    const batch = await publish('live', [
      { key: 'k', value: 2 },
      { key: 'k', value: 3 },
    ]);
    expect((await nextMessage(reader)).message.id).to.equal(batch[0]?.id);
    expect((await nextMessage(reader)).message.id).to.equal(batch[1]?.id);
    await reader.cancel();
  });

  it('starts from an offset of one partition when asked', async () => {
    const sent = await publish('quiet', [
      { key: 'p', value: 'a' },
      { key: 'p', value: 'b' },
    ]);
    const partition = sent[0]?.partition as number;
    const reader = await readEvents(
      tk,
      `/streams/quiet/tail?partition=${partition}&from_offset=${sent[1]?.offset}`,
      token,
    );
    expect((await nextMessage(reader)).message.value).to.equal('b');
    await reader.cancel();
  });
});
