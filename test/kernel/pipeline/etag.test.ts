import { expect } from 'chai';
import { ifMatch } from '../../../kernel/plugin/api.js';
import type { RouteDecl } from '../../../kernel/manifest/types.js';
import type { Call, PluginDefinition } from '../../../kernel/types.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * Optimistic concurrency as the manifest declares it (`etag`): the kernel sends the declared
 * version field as the ETag of successful replies, and `ifMatch` gives the handler one call that
 * answers a stale If-Match with 412. A route that does not declare it gets neither.
 */
const PERMISSION = 'test:note:write';
const NOTE = {
  type: 'object',
  properties: { id: { type: 'string' }, text: { type: 'string' }, version: { type: 'integer' } },
};
const route = (decl: Partial<RouteDecl> & Pick<RouteDecl, 'operation' | 'method' | 'path'>): RouteDecl => ({
  permission: PERMISSION,
  category: 'test',
  read_only: decl.method === 'GET',
  summary: decl.operation,
  response: { status: 200, schema: NOTE },
  ...(decl.method === 'GET' ? {} : { audit: { class: 'none', reason: 'test route' } }),
  ...decl,
});

/** One note in memory, at a version every change moves on. */
function notesPlugin(): PluginDefinition {
  const note = { id: 'n', text: 'first', version: 1 };
  const change = (call: Call) => {
    ifMatch(call, note.version, `Note "${note.id}"`);
    note.text = (call.body as { text: string }).text;
    note.version += 1;
    return { status: 200, body: { ...note } };
  };
  return {
    id: 'notes',
    manifest: {
      id: 'notes',
      version: '1.0.0',
      summary: 'Versioned notes for the ETag tests',
      permissions: [{ name: PERMISSION, description: 'notes' }],
      routes: [
        route({ operation: 'getNote', method: 'GET', path: '/note', etag: { field: 'version' } }),
        route({
          operation: 'putNote',
          method: 'PUT',
          path: '/note',
          body: { type: 'object', properties: { text: { type: 'string' } } },
          etag: { field: 'version', if_match: true },
        }),
        route({
          operation: 'deleteNote',
          method: 'DELETE',
          path: '/note',
          response: { status: 204 },
          etag: { field: 'version', if_match: true },
        }),
        route({ operation: 'getPlainNote', method: 'GET', path: '/note/plain' }),
        route({
          operation: 'putPlainNote',
          method: 'PUT',
          path: '/note/plain',
          body: { type: 'object', properties: { text: { type: 'string' } } },
        }),
      ],
    },
    setup: () => ({
      handlers: {
        getNote: () => ({ status: 200, body: { ...note } }),
        putNote: change,
        deleteNote: (call) => {
          ifMatch(call, note.version);
          return { status: 204 };
        },
        getPlainNote: () => ({ status: 200, body: { ...note } }),
        // Calls ifMatch although its route declares no etag: a programming error, not a 412.
        putPlainNote: change,
      },
    }),
  };
}

describe('pipeline: ETag and If-Match declared in the manifest (etag)', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } }, { plugins: [notesPlugin()] });
  });
  after(() => tk?.close());

  it('sends the declared version field as a strong ETag on reads and changes', async () => {
    const read = await tk.request('GET', '/note');
    expect(read.status).to.equal(200);
    expect(read.headers.get('etag')).to.equal('"1"');
    const put = await tk.request('PUT', '/note', { body: { text: 'second' }, headers: { 'if-match': '"1"' } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.version).to.equal(2);
    expect(put.headers.get('etag')).to.equal('"2"');
  });

  it('answers a stale If-Match with 412 precondition_failed pointing at the header, and changes nothing', async () => {
    const stale = await tk.request('PUT', '/note', { body: { text: 'lost' }, headers: { 'if-match': '"1"' } });
    expect(stale.status).to.equal(412);
    expect(stale.body.error).to.include({ code: 'precondition_failed', status: 412 });
    expect(stale.body.error.message).to.equal('Note "n" is at version 2 (ETag "2"), not "1"; read it again and retry.');
    expect(stale.body.error.details).to.deep.equal([
      { in: 'headers', pointer: '/if-match', message: 'does not match the current ETag "2"' },
    ]);
    expect(stale.headers.get('etag')).to.equal(null);
    expect((await tk.request('GET', '/note')).body.text).to.equal('second');
  });

  it('takes *, a list naming the current tag, or no If-Match; a weak tag never matches', async () => {
    for (const header of ['*', '"9", "3"', ' "4" ']) {
      const res = await tk.request('PUT', '/note', { body: { text: header }, headers: { 'if-match': header } });
      expect(res.status, header).to.equal(200);
    }
    expect((await tk.request('PUT', '/note', { body: { text: 'any' } })).status).to.equal(200);
    const weak = await tk.request('PUT', '/note', { body: { text: 'weak' }, headers: { 'if-match': 'W/"6"' } });
    expect(weak.status).to.equal(412);
    const del = await tk.request('DELETE', '/note', { headers: { 'if-match': '"1"' } });
    expect(del.status).to.equal(412);
    expect(del.body.error.message).to.match(/^The resource is at version 6 /);
    expect((await tk.request('DELETE', '/note', { headers: { 'if-match': '"6"' } })).status).to.equal(204);
  });

  it('gives a route that does not declare it no ETag, and refuses ifMatch there as a programming error', async () => {
    const read = await tk.request('GET', '/note/plain');
    expect(read.status).to.equal(200);
    expect(read.headers.get('etag')).to.equal(null);
    const put = await tk.request('PUT', '/note/plain', { body: { text: 'x' }, headers: { 'if-match': '"6"' } });
    expect(put.status).to.equal(500);
  });

  it('documents ETag, If-Match and 412 in the OpenAPI document only where the manifest declares them', async () => {
    const doc = (await tk.request('GET', '/openapi.json')).body;
    const get = doc.paths['/note'].get;
    const put = doc.paths['/note'].put;
    expect(get.responses['200'].headers).to.have.key('ETag');
    expect(get.parameters.map((p: { name: string }) => p.name)).to.not.include('If-Match');
    expect(get.responses).to.not.have.key('412');
    expect(put.responses['200'].headers).to.have.key('ETag');
    expect(put.parameters).to.deep.include.members([
      {
        name: 'If-Match',
        in: 'header',
        required: false,
        description:
          'The ETag read before (the version, quoted), or *: the change applies only while it is current (412 otherwise).',
        schema: { type: 'string', maxLength: 1024 },
      },
    ]);
    expect(put.responses).to.have.property('412');
    expect(doc.paths['/note'].delete.responses).to.have.property('412');
    const plain = doc.paths['/note/plain'].put;
    expect(plain.responses['200'].headers ?? {}).to.not.have.key('ETag');
    expect(plain.parameters.map((p: { name: string }) => p.name)).to.not.include('If-Match');
    expect(plain.responses).to.not.have.key('412');
  });
});
