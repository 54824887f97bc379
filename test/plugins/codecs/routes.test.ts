import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';
import { decode, encode } from './http.js';

describe('codecs: routes, revisions, ETags, tenancy, audit and the OpenAPI document', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let other: string;
  let reader: string;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'codecs'] });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'other');
    other = await mintToken(tk, admin, ['admin'], { tenantId: 'other' });
    reader = await mintToken(tk, admin, ['viewer'], { readOnly: true });
  });
  after(() => tk?.close());

  async function auditCount(operation: string, resourceId: string, tenant = 'default'): Promise<number> {
    return (
      await tk.kernel.database.knex('audit_records').where({ operation, resource_id: resourceId, tenant_id: tenant })
    ).length;
  }

  describe('create, read, list', () => {
    it('creates a codec at revision 1 with its first revision kept, ETag "1", one audit record', async () => {
      const res = await tk.request('POST', '/codecs', {
        token: admin,
        body: { name: 'Orders (Avro)', kind: 'avro', schema: 'string' },
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('location')).to.equal('/codecs/orders-avro');
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(res.body).to.include({
        id: 'orders-avro',
        tenant_id: 'default',
        name: 'Orders (Avro)',
        kind: 'avro',
        schema: 'string',
        revision: 1,
      });
      const stored = await tk.kernel.database
        .knex('codecs_revisions')
        .where({ tenant_id: 'default', codec_id: 'orders-avro' });
      expect(stored.map((r: any) => [r.revision, r.schema])).to.deep.equal([[1, 'string']]);
      expect(await auditCount('createCodec', 'orders-avro')).to.equal(1);
    });

    it('answers a taken id with 409', async () => {
      const res = await tk.request('POST', '/codecs', {
        token: admin,
        body: { id: 'orders-avro', name: 'again', kind: 'text' },
      });
      expect(res.status).to.equal(409);
      expect((await tk.kernel.database.knex('codecs').where({ id: 'orders-avro' }).first()).kind).to.equal('avro');
    });

    it('reads a codec with its ETag, and pages the list', async () => {
      for (const id of ['page-a', 'page-b', 'page-c'])
        expect(
          (await tk.request('POST', '/codecs', { token: admin, body: { id, name: id, kind: 'text' } })).status,
        ).to.equal(201);
      const one = await tk.request('GET', '/codecs/page-b', { token: admin });
      expect(one.status).to.equal(200);
      expect(one.headers.get('etag')).to.equal('"1"');
      const first = await tk.request('GET', '/codecs?kind=text&limit=2', { token: admin });
      expect(first.body.items.map((c: any) => c.id)).to.deep.equal(['page-a', 'page-b']);
      const cursor = first.headers.get('x-next-cursor');
      expect(cursor).to.be.a('string');
      const second = await tk.request(
        'GET',
        `/codecs?kind=text&limit=2&cursor=${encodeURIComponent(cursor as string)}`,
        { token: admin },
      );
      expect(second.body.items.map((c: any) => c.id)).to.deep.equal(['page-c']);
      expect(second.headers.get('x-next-cursor')).to.equal(null);
    });
  });

  describe('PUT with If-Match, revisions, DELETE', () => {
    it('replaces with the current ETag, and answers a stale one with 412 leaving the codec as it was', async () => {
      await tk.request('POST', '/codecs', { token: admin, body: { id: 'etag', name: 'etag', kind: 'json' } });
      const ok = await tk.request('PUT', '/codecs/etag', {
        token: admin,
        headers: { 'if-match': '"1"' },
        body: { name: 'etag v2', schema: { type: 'object' } },
      });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.headers.get('etag')).to.equal('"2"');
      const stale = await tk.request('PUT', '/codecs/etag', {
        token: admin,
        headers: { 'if-match': '"1"' },
        body: { name: 'lost update' },
      });
      expect(stale.status).to.equal(412);
      expect(stale.body.error).to.include({ code: 'precondition_failed', status: 412 });
      expect(stale.body.error.details[0]).to.include({ in: 'headers', pointer: '/if-match' });
      const row = await tk.kernel.database.knex('codecs').where({ tenant_id: 'default', id: 'etag' }).first();
      expect(row).to.include({ name: 'etag v2', revision: 2 });
      expect(await auditCount('replaceCodec', 'etag')).to.equal(2);
      const revisions = await tk.request('GET', '/codecs/etag/revisions?limit=1', { token: admin });
      expect(revisions.body.items.map((r: any) => r.revision)).to.deep.equal([1]);
      const rest = await tk.request(
        'GET',
        `/codecs/etag/revisions?cursor=${encodeURIComponent(revisions.headers.get('x-next-cursor') as string)}`,
        { token: admin },
      );
      expect(rest.body.items.map((r: any) => [r.revision, r.name])).to.deep.equal([[2, 'etag v2']]);
      expect(rest.body.items[0].changed_by).to.be.a('string');
    });

    it('deletes a codec with its revisions (If-Match checked), one audit record, then 404', async () => {
      await tk.request('POST', '/codecs', { token: admin, body: { id: 'doomed', name: 'doomed', kind: 'cbor' } });
      expect(
        (await tk.request('DELETE', '/codecs/doomed', { token: admin, headers: { 'if-match': '"7"' } })).status,
      ).to.equal(412);
      expect(
        (await tk.request('DELETE', '/codecs/doomed', { token: admin, headers: { 'if-match': '"1"' } })).status,
      ).to.equal(204);
      expect(await tk.kernel.database.knex('codecs').where({ id: 'doomed' })).to.have.length(0);
      expect(await tk.kernel.database.knex('codecs_revisions').where({ codec_id: 'doomed' })).to.have.length(0);
      expect(await auditCount('deleteCodec', 'doomed')).to.equal(2);
      expect((await tk.request('GET', '/codecs/doomed', { token: admin })).status).to.equal(404);
      expect((await tk.request('GET', '/codecs/doomed/revisions', { token: admin })).status).to.equal(404);
    });
  });

  describe('actions', () => {
    it('decodes and encodes without writing an audit record, also for a read-only credential', async () => {
      const encoded = await encode(tk, 'orders-avro', 'hi', { token: reader });
      expect(encoded.status, JSON.stringify(encoded.body)).to.equal(200);
      const decoded = await decode(tk, 'orders-avro', encoded.bytes, { token: reader });
      expect(decoded.body).to.deep.equal({ value: 'hi' });
      expect(await auditCount('encodeWithCodec', 'orders-avro')).to.equal(0);
      expect(await auditCount('decodeWithCodec', 'orders-avro')).to.equal(0);
      expect(
        (await tk.request('POST', '/codecs', { token: reader, body: { name: 'nope', kind: 'text' } })).status,
      ).to.equal(403);
    });
  });

  describe('tenancy', () => {
    it("keeps another tenant's codecs out of reach: 404 on read, change, delete, decode and encode", async () => {
      expect((await tk.request('GET', '/codecs/orders-avro', { token: other })).status).to.equal(404);
      expect(
        (await tk.request('PUT', '/codecs/orders-avro', { token: other, body: { name: 'hijack' } })).status,
      ).to.equal(404);
      expect((await tk.request('DELETE', '/codecs/orders-avro', { token: other })).status).to.equal(404);
      expect((await decode(tk, 'orders-avro', Uint8Array.from([4, 104, 105]), { token: other })).status).to.equal(404);
      expect((await encode(tk, 'orders-avro', 'x', { token: other })).status).to.equal(404);
      expect((await tk.request('GET', '/codecs', { token: other })).body.items).to.deep.equal([]);
      const own = await tk.request('POST', '/codecs', {
        token: other,
        body: { id: 'orders-avro', name: 'Theirs', kind: 'text' },
      });
      expect(own.status).to.equal(201);
      expect((await tk.request('GET', '/codecs/orders-avro', { token: admin })).body.kind).to.equal('avro');
    });
  });

  describe('kinds', () => {
    it('lists the kinds the enabled plugins contribute, with the plugin that gave each', async () => {
      const res = await tk.request('GET', '/codec-kinds', { token: admin });
      expect(res.status).to.equal(200);
      expect(res.body.items.map((k: any) => `${k.kind}:${k.plugin}:${k.schema_evolution}`)).to.deep.equal([
        'avro:codecs:true',
        'cbor:codecs:false',
        'csv:codecs:false',
        'json:codecs:false',
        'msgpack:codecs:false',
        'protobuf:codecs:true',
        'text:codecs:false',
      ]);
    });
  });

  describe('OpenAPI', () => {
    it('lists every codec route, decode taking octet-stream and encode answering it', async () => {
      const doc = (await tk.request('GET', '/openapi.json', { token: admin })).body;
      const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op?.operationId)
          .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
      );
      expect(ops).to.include.members([
        'GET /codec-kinds listCodecKinds',
        'GET /codecs listCodecs',
        'POST /codecs createCodec',
        'GET /codecs/{id} getCodec',
        'PUT /codecs/{id} replaceCodec',
        'DELETE /codecs/{id} deleteCodec',
        'GET /codecs/{id}/revisions listCodecRevisions',
        'POST /codecs/{id}/decode decodeWithCodec',
        'POST /codecs/{id}/encode encodeWithCodec',
      ]);
      expect(doc.paths['/codecs/{id}/decode'].post.requestBody.content).to.have.key('application/octet-stream');
      expect(doc.paths['/codecs/{id}/encode'].post.responses['200'].content).to.have.property(
        'application/octet-stream',
      );
      expect(doc.paths['/codecs/{id}'].put.responses).to.include.keys('412', '422');
    });
  });
});
