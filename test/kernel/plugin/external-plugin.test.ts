import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

const FIXTURE = { module: 'test/fixtures/third-party-plugin' };

describe('an external plugin (plain JavaScript, loaded from a folder)', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ auth: { mode: 'none' }, plugins: ['system', FIXTURE] });
  });
  after(() => k.close());

  it('is served like a built-in: its routes answer and write to its own table', async () => {
    const created = await k.request('POST', '/notes', { body: { id: 'n1', title: 'First', text: 'hello' } });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ id: 'n1', tenant_id: 'default', title: 'First', text: 'hello', pinned: false });
    expect(created.headers.get('location')).to.equal('/notes/n1');
    const rows = await k.kernel.database.knex('notes').where({ tenant_id: 'default' }).select('id', 'title');
    expect(rows).to.deep.equal([{ id: 'n1', title: 'First' }]);

    const pinned = await k.request('POST', '/notes/n1/pin', { body: {} });
    expect(pinned.status).to.equal(200);
    expect(pinned.body.pinned).to.equal(true);

    const list = await k.request('GET', '/notes');
    expect(list.status).to.equal(200);
    expect(list.body.items.map((n: { id: string }) => n.id)).to.deep.equal(['n1']);
    expect(list.body).to.not.have.property('next_cursor');
  });

  it("gets the kernel's validation from its manifest", async () => {
    const bad = await k.request('POST', '/notes', { body: { id: 'n2', title: '' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation_error');
    expect(await k.kernel.database.knex('notes').where({ id: 'n2' }).first()).to.equal(undefined);
  });

  it('appears in /openapi.json with its paths, permissions and kernel-added fields', async () => {
    const doc = await k.request('GET', '/openapi.json');
    expect(doc.status).to.equal(200);
    const paths = doc.body.paths as Record<string, Record<string, any>>;
    expect(Object.keys(paths)).to.include.members(['/notes', '/notes/{id}', '/notes/{id}/pin']);
    expect(paths['/notes']).to.have.keys('get', 'post');
    const listParams = (paths['/notes']!.get.parameters as Array<{ name: string }>).map((p) => p.name);
    expect(listParams).to.include.members(['limit', 'cursor', 'pinned']);
    expect(JSON.stringify(doc.body)).to.contain('notes:note:write');
  });
});
