import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { decode, encode } from './http.js';

const ORDER_V1 = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'int' },
    { name: 'note', type: 'string', default: '' },
  ],
};

function avroWith(fields: unknown[]): Record<string, unknown> {
  return { ...ORDER_V1, fields };
}

const [ID, AMOUNT, NOTE] = ORDER_V1.fields;

const proto = (body: string): { proto: string; message: string } => ({
  proto: `syntax = "proto3";\npackage shop;\nmessage Order {\n${body}\n}\n`,
  message: 'shop.Order',
});
const PROTO_V1 = proto('  string id = 1;\n  int64 amount = 2;');

describe('codecs: schema evolution on PUT /codecs/{id}', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let seq = 0;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'codecs'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  async function create(kind: string, schema: unknown): Promise<string> {
    const id = `evo-${kind}-${++seq}`;
    const res = await tk.request('POST', '/codecs', { body: { id, name: id, kind, schema } });
    expect(res.status, res.text).to.equal(201);
    return id;
  }

  async function row(id: string): Promise<{ revision: number; schema: unknown }> {
    return tk.kernel.database.knex('codecs').where({ tenant_id: 'default', id }).first('revision', 'schema');
  }

  /** PUTs `schema`, expects 422 incompatible_schema with a detail matching `broke`, and the codec untouched. */
  async function refused(id: string, kind: string, schema: unknown, broke: RegExp): Promise<void> {
    const before = await row(id);
    const res = await tk.request('PUT', `/codecs/${id}`, { body: { name: id, kind, schema } });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.code).to.equal('incompatible_schema');
    expect(res.body.error.message).to.contain('force=true');
    const messages = (res.body.error.details as Array<{ pointer: string; message: string }>).map((d) => d.message);
    expect(
      messages.some((m) => broke.test(m)),
      messages.join('\n'),
    ).to.equal(true);
    expect(await row(id)).to.deep.equal(before);
  }

  describe('avro (checked both ways by default)', () => {
    it('refuses a removed field without default: readers still on the old schema cannot fill it', async () => {
      await refused(
        await create('avro', ORDER_V1),
        'avro',
        avroWith([ID, NOTE]),
        /amount: readers still on the previous schema cannot read new data: field added without a default/,
      );
    });

    it('refuses a changed type that does not promote', async () => {
      await refused(
        await create('avro', ORDER_V1),
        'avro',
        avroWith([ID, { name: 'amount', type: 'string' }, NOTE]),
        /amount: .*int.*string/,
      );
    });

    it('refuses a new field without default: old data has no value for it', async () => {
      await refused(
        await create('avro', ORDER_V1),
        'avro',
        avroWith([ID, AMOUNT, NOTE, { name: 'currency', type: 'string' }]),
        /currency: field added without a default/,
      );
    });

    it('keeps a compatible change (a field added with a default) as a new revision, and decodes old bytes with ?revision', async () => {
      const id = await create('avro', ORDER_V1);
      const old = await encode(tk, id, { id: 'o-1', amount: 5, note: 'n' });
      expect(old.status).to.equal(200);
      const res = await tk.request('PUT', `/codecs/${id}`, {
        body: { name: id, schema: avroWith([ID, AMOUNT, NOTE, { name: 'currency', type: 'string', default: 'EUR' }]) },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.revision).to.equal(2);
      expect(res.headers.get('etag')).to.equal('"2"');
      const resolved = await decode(tk, id, old.bytes, { query: '?revision=1' });
      expect(resolved.status, resolved.text).to.equal(200);
      expect(resolved.body.value).to.deep.equal({ id: 'o-1', amount: 5, note: 'n', currency: 'EUR' });
      expect((await decode(tk, id, old.bytes, { query: '?revision=9' })).status).to.equal(404);
    });
  });

  describe('protobuf', () => {
    it('refuses a changed field type', async () => {
      await refused(
        await create('protobuf', PROTO_V1),
        'protobuf',
        proto('  string id = 1;\n  string amount = 2;'),
        /shop\.Order\.amount \(field 2\): type changed from int64 to string/,
      );
    });

    it('refuses a reused field number', async () => {
      await refused(
        await create('protobuf', PROTO_V1),
        'protobuf',
        proto('  string id = 1;\n  int64 total = 2;'),
        /field number 2 is now named total/,
      );
    });

    it('refuses a removed field whose number is not reserved', async () => {
      await refused(
        await create('protobuf', PROTO_V1),
        'protobuf',
        proto('  string id = 1;'),
        /amount \(field 2\): field removed without reserving its number/,
      );
    });

    it('keeps a removed field whose number is reserved, and an added field', async () => {
      const id = await create('protobuf', PROTO_V1);
      const res = await tk.request('PUT', `/codecs/${id}`, {
        body: { name: id, schema: proto('  reserved 2;\n  reserved "amount";\n  string id = 1;\n  string note = 3;') },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.revision).to.equal(2);
    });
  });

  it('refuses a changed kind as incompatible', async () => {
    await refused(await create('json', null), 'msgpack', null, /kind changed from json to msgpack/);
  });

  it('keeps an incompatible change with ?force=true as a new revision that records what broke', async () => {
    const id = await create('avro', ORDER_V1);
    const res = await tk.request('PUT', `/codecs/${id}?force=true`, {
      body: { name: 'renamed', schema: avroWith([ID, { name: 'amount', type: 'string' }]) },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ revision: 2, name: 'renamed' });
    const revisions = await tk.request('GET', `/codecs/${id}/revisions`);
    expect(revisions.status).to.equal(200);
    expect(revisions.body.items.map((r: any) => r.revision)).to.deep.equal([1, 2]);
    expect(revisions.body.items[0]).to.include({ name: id, forced_problems: null });
    expect(revisions.body.items[0].schema).to.deep.equal(ORDER_V1);
    expect(revisions.body.items[1].forced_problems.map((p: any) => p.path).join(' ')).to.contain('amount');
    expect((await row(id)).revision).to.equal(2);
    // Bytes in the new schema decode with the new schema.
    const encoded = await encode(tk, id, { id: 'x', amount: 'lots' });
    expect((await decode(tk, id, encoded.bytes)).body.value).to.deep.equal({ id: 'x', amount: 'lots' });
  });

  it('refuses an invalid new schema with 400 before any compatibility check', async () => {
    const id = await create('protobuf', PROTO_V1);
    const res = await tk.request('PUT', `/codecs/${id}`, {
      body: { name: id, schema: proto('  string id = 1;\n  int64 amount = 2') },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error.details[0].pointer).to.match(/^\/schema/);
  });
});

describe('codecs: settings.codecs.avro_compatibility = backward', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'codecs'],
      auth: { mode: 'none' },
      settings: { codecs: { avro_compatibility: 'backward' } },
    });
  });
  after(() => tk?.close());

  it('lets a field without default be removed (new readers skip it) but still refuses a type change', async () => {
    await tk.request('POST', '/codecs', { body: { id: 'b', name: 'b', kind: 'avro', schema: ORDER_V1 } });
    expect(
      (await tk.request('PUT', '/codecs/b', { body: { name: 'b', schema: avroWith([ID, NOTE]) } })).status,
    ).to.equal(200);
    const typeChange = await tk.request('PUT', '/codecs/b', {
      body: { name: 'b', schema: avroWith([{ name: 'id', type: 'int' }, NOTE]) },
    });
    expect(typeChange.status).to.equal(422);
  });
});
