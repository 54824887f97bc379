import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { NATS_URL, dropJetStreams } from './nats-support.js';

const ORDER_V1 = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'int' },
  ],
};
/** V1 plus a field with a default: backward compatible, so a reader with V2 reads V1's bytes. */
const ORDER_V2 = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: 'currency', type: 'string', default: 'EUR' }] };
const PROTO_V1 = {
  proto: 'syntax = "proto3";\npackage shop;\nmessage Order {\n  string id = 1;\n  int64 amount = 2;\n}\n',
  message: 'shop.Order',
};
const PROTO_V2 = {
  proto:
    'syntax = "proto3";\npackage shop;\nmessage Order {\n  string id = 1;\n  int64 amount = 2;\n  string currency = 3;\n}\n',
  message: 'shop.Order',
};

const backends = [
  { name: 'postgres', settings: {} },
  { name: 'nats (JetStream)', settings: { backend: 'nats', nats: { url: NATS_URL } } },
];

for (const backend of backends) {
  describe(`streams: each message records the codec revision that wrote it (${backend.name})`, function () {
    this.timeout(120_000);
    let tk: TestKernel;
    let seq = 0;

    before(async () => {
      tk = await startKernel({
        plugins: ['system', 'audit', 'codecs', 'streams'],
        auth: { mode: 'none' },
        settings: { streams: backend.settings },
      });
    });
    after(async () => {
      if (!tk) return;
      if (backend.name !== 'postgres') {
        await dropJetStreams(tk);
      }
      await tk.close();
    });

    /** A codec of `kind` at `v1` and a stream using it; returns both ids. */
    async function setUp(kind: string, v1: unknown): Promise<{ codec: string; stream: string }> {
      const id = `rev-${kind}-${++seq}-${Math.random().toString(36).slice(2, 7)}`;
      const codec = await tk.request('POST', '/codecs', { body: { id, name: id, kind, schema: v1 } });
      expect(codec.status, codec.text).to.equal(201);
      const stream = await tk.request('POST', '/streams', { body: { id, name: id, codec: id } });
      expect(stream.status, stream.text).to.equal(201);
      return { codec: id, stream: id };
    }

    async function publish(stream: string, values: unknown[]): Promise<string[]> {
      const res = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: values.map((value) => ({ value })) },
      });
      expect(res.status, res.text).to.equal(201);
      return res.body.messages.map((m: { id: string }) => m.id);
    }

    async function evolve(codec: string, kind: string, schema: unknown): Promise<void> {
      const res = await tk.request('PUT', `/codecs/${codec}`, { body: { name: codec, kind, schema } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.revision).to.equal(2);
    }

    it('avro: a message written under revision 1 shows, after a compatible change, with the new field defaulted; new messages decode too', async () => {
      const { codec, stream } = await setUp('avro', ORDER_V1);
      const [old] = await publish(stream, [{ id: 'o-1', amount: 5 }]);
      if (backend.name === 'postgres') {
        const row = await tk.kernel.database
          .knex('streams_messages')
          .where({ tenant_id: 'default', id: old })
          .first('codec', 'codec_revision');
        expect(row).to.deep.equal({ codec, codec_revision: 1 });
      }
      await evolve(codec, 'avro', ORDER_V2);
      const [fresh] = await publish(stream, [{ id: 'o-2', amount: 7, currency: 'USD' }]);

      const shownOld = await tk.request('GET', `/messages/${old}`);
      expect(shownOld.status, shownOld.text).to.equal(200);
      expect(shownOld.body.value).to.deep.equal({ id: 'o-1', amount: 5, currency: 'EUR' });
      expect(shownOld.body).to.not.have.property('body_base64');
      const shownNew = await tk.request('GET', `/messages/${fresh}`);
      expect(shownNew.body.value).to.deep.equal({ id: 'o-2', amount: 7, currency: 'USD' });

      // Reads by offset and GET /messages resolve each message by its own writer revision.
      const read = await tk.request('GET', `/streams/${stream}/messages`);
      expect(read.body.items.map((m: { value: unknown }) => m.value)).to.deep.equal([
        shownOld.body.value,
        shownNew.body.value,
      ]);
      const listed = await tk.request('GET', `/messages?stream=${stream}`);
      expect(listed.body.items.map((m: { value: unknown }) => m.value)).to.deep.equal([
        shownOld.body.value,
        shownNew.body.value,
      ]);

      // The old message's bytes are still V1's: V2's schema alone cannot read them (the writer revision is what does).
      const body = await fetch(`${tk.url}/messages/${old}/body`);
      const decodedAsV2 = await tk.request('POST', `/codecs/${codec}/decode`, {
        raw: Buffer.from(await body.arrayBuffer()),
        contentType: 'application/octet-stream',
      });
      expect(decodedAsV2.status, decodedAsV2.text).to.equal(400);
    });

    it('avro: a replay keeps the writer revision of the original, so it shows the same value', async () => {
      const { codec, stream } = await setUp('avro', ORDER_V1);
      const [old] = await publish(stream, [{ id: 'o-3', amount: 9 }]);
      await evolve(codec, 'avro', ORDER_V2);
      const replay = await tk.request('POST', `/messages/${old}/replay`, {
        body: { request_id: `r-${Math.random().toString(36).slice(2)}` },
      });
      expect(replay.status, replay.text).to.equal(201);
      const shown = await tk.request('GET', `/messages/${replay.body.id}`);
      expect(shown.body.value).to.deep.equal({ id: 'o-3', amount: 9, currency: 'EUR' });
    });

    it('protobuf: a message of revision 1 still decodes after a field is added; new messages carry the field', async () => {
      const { codec, stream } = await setUp('protobuf', PROTO_V1);
      const [old] = await publish(stream, [{ id: 'p-1', amount: '12' }]);
      await evolve(codec, 'protobuf', PROTO_V2);
      const [fresh] = await publish(stream, [{ id: 'p-2', amount: '13', currency: 'USD' }]);
      const shownOld = await tk.request('GET', `/messages/${old}`);
      expect(shownOld.body.value).to.include({ id: 'p-1' });
      expect(String(shownOld.body.value.amount)).to.equal('12');
      const shownNew = await tk.request('GET', `/messages/${fresh}`);
      expect(shownNew.body.value).to.include({ id: 'p-2', currency: 'USD' });
    });
  });
}
