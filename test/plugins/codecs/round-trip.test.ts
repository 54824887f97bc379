import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { decode, encode } from './http.js';

interface KindCase {
  kind: string;
  schema?: unknown;
  value: unknown;
  /** Bytes the kind cannot decode, and what the refusal must say. */
  malformed: { bytes: number[]; message: RegExp };
  /** A value the codec cannot encode, and the pointer the refusal names. */
  misfit?: { value: unknown; pointer: string };
}

const PROTO =
  'syntax = "proto3";\npackage shop;\nmessage Order {\n  string id = 1;\n  int64 amount = 2;\n  repeated string tags = 3;\n}\n';

/** One codec of every built-in kind, with a value, bytes that do not decode and a value that does not fit. */
const CASES: KindCase[] = [
  {
    kind: 'json',
    schema: {
      type: 'object',
      required: ['n'],
      properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
    },
    value: { n: 7, tags: ['a', 'ü'] },
    malformed: { bytes: [...Buffer.from('{"n": 7')], message: /JSON/i },
    misfit: { value: { n: 'seven' }, pointer: '/value/n' },
  },
  {
    kind: 'text',
    value: 'héllo, wörld',
    malformed: { bytes: [0x68, 0xff, 0xfe], message: /UTF-8/ },
    misfit: { value: 42, pointer: '/value' },
  },
  {
    kind: 'csv',
    schema: { delimiter: ';', header: true, columns: ['sku', 'qty'] },
    value: [
      { sku: 'A-1', qty: '2' },
      { sku: 'B;2', qty: '5' },
    ],
    malformed: { bytes: [...Buffer.from('sku;qty\nA-1;2;3\n')], message: /line 2|fields/ },
    misfit: { value: [{ sku: 'A' }, { sku: 'B', colour: 'red' }], pointer: '/value/1/colour' },
  },
  {
    kind: 'avro',
    schema: {
      type: 'record',
      name: 'Order',
      fields: [
        { name: 'id', type: 'string' },
        { name: 'amount', type: 'int' },
      ],
    },
    value: { id: 'o-1', amount: 1250 },
    malformed: { bytes: [0x06, 0x6f, 0x2d], message: /avro|remain|end/i },
    misfit: { value: { id: 'o-1', amount: 'lots' }, pointer: '/value/amount' },
  },
  {
    kind: 'protobuf',
    schema: { proto: PROTO, message: 'shop.Order' },
    value: { id: 'o-1', amount: '9007199254740993', tags: ['x', 'y'] },
    malformed: { bytes: [0x0f, 0x00], message: /wire type 7 does not exist/ },
    misfit: { value: { id: 'o-1', amount: 'lots' }, pointer: '/value/amount' },
  },
  {
    kind: 'msgpack',
    value: { a: [1, 2.5, 'three', null, true], nested: { deep: 'yes' } },
    malformed: { bytes: [0xc1], message: /0xc1 is never used/ },
  },
  {
    kind: 'cbor',
    value: { a: [1, 2.5, 'three', null, false], nested: { deep: 'yes' } },
    malformed: { bytes: [0xf0], message: /simple values other than/ },
  },
];

describe('codecs: every kind round-trips over HTTP, and refuses what it cannot read or write', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'codecs'], auth: { mode: 'none' } });
    for (const c of CASES) {
      const res = await tk.request('POST', '/codecs', {
        body: {
          id: `rt-${c.kind}`,
          name: `Round trip ${c.kind}`,
          kind: c.kind,
          ...(c.schema !== undefined ? { schema: c.schema } : {}),
        },
      });
      expect(res.status, `${c.kind}: ${res.text}`).to.equal(201);
    }
  });
  after(() => tk?.close());

  for (const c of CASES) {
    describe(c.kind, () => {
      it('encodes a value to octet-stream bytes and decodes them back to the same value', async () => {
        const encoded = await encode(tk, `rt-${c.kind}`, c.value);
        expect(encoded.status, JSON.stringify(encoded.body)).to.equal(200);
        expect(encoded.contentType).to.equal('application/octet-stream');
        expect(encoded.bytes.length).to.be.greaterThan(0);
        const decoded = await decode(tk, `rt-${c.kind}`, encoded.bytes);
        expect(decoded.status, decoded.text).to.equal(200);
        expect(decoded.body).to.deep.equal({ value: c.value });
      });

      it('answers malformed bytes with 400 naming the problem', async () => {
        const res = await decode(tk, `rt-${c.kind}`, Uint8Array.from(c.malformed.bytes));
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error.code).to.equal('validation_error');
        expect(res.body.error.message).to.match(c.malformed.message);
        expect(res.body.error.details[0].in).to.equal('body');
      });

      if (c.misfit) {
        const misfit = c.misfit;
        it('answers a value that does not fit with 400 naming its path', async () => {
          const res = await encode(tk, `rt-${c.kind}`, misfit.value);
          expect(res.status).to.equal(400);
          expect(res.body.error.code).to.equal('validation_error');
          expect(res.body.error.details[0]).to.include({ in: 'body', pointer: misfit.pointer });
        });
      }
    });
  }

  it('decodes an empty body as zero bytes (a text codec reads the empty string)', async () => {
    const res = await tk.request('POST', '/codecs/rt-text/decode', {
      raw: Buffer.alloc(0),
      contentType: 'application/octet-stream',
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ value: '' });
  });

  it('refuses a decode body that is not application/octet-stream (415)', async () => {
    const res = await tk.request('POST', '/codecs/rt-text/decode', { raw: 'hello', contentType: 'text/plain' });
    expect(res.status).to.equal(415);
  });

  it('answers decode and encode of a codec that does not exist with 404', async () => {
    expect((await decode(tk, 'missing', Uint8Array.from([1]))).status).to.equal(404);
    expect((await encode(tk, 'missing', 'x')).status).to.equal(404);
  });

  it('refuses a schema the kind cannot compile with 400 naming the pointer, or the .proto line', async () => {
    const avro = await tk.request('POST', '/codecs', {
      body: {
        name: 'bad avro',
        kind: 'avro',
        schema: { type: 'record', name: 'R', fields: [{ name: 'x', type: 'nope' }] },
      },
    });
    expect(avro.status).to.equal(400);
    expect(avro.body.error.details[0].pointer).to.match(/^\/schema\/fields\/0/);
    const proto = await tk.request('POST', '/codecs', {
      body: {
        name: 'bad proto',
        kind: 'protobuf',
        schema: { proto: 'syntax = "proto3";\nmessage M {\n  strin x = 1\n}\n', message: 'M' },
      },
    });
    expect(proto.status).to.equal(400);
    expect(proto.body.error.message).to.match(/line \d/);
    const text = await tk.request('POST', '/codecs', { body: { name: 'bad text', kind: 'text', schema: { any: 1 } } });
    expect(text.status).to.equal(400);
    expect(text.body.error.details[0].pointer).to.equal('/schema');
    expect(
      (await tk.kernel.database.knex('codecs').whereIn('name', ['bad avro', 'bad proto', 'bad text'])).length,
    ).to.equal(0);
  });

  it('refuses an unknown kind with 400 naming the known kinds', async () => {
    const res = await tk.request('POST', '/codecs', { body: { name: 'x', kind: 'yaml' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.contain('yaml').and.to.contain('avro, cbor, csv, json, msgpack, protobuf, text');
    expect(res.body.error.details[0].pointer).to.equal('/kind');
  });
});
