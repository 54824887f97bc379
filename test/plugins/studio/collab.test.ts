import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin, mintToken } from '../../support/identity.js';
import { studioTicket, waitUntil, YClient } from './yjs-client.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

describe('studio collab: Yjs over the collab WebSocket', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let writer: string;
  let viewer: string;
  const clients: YClient[] = [];

  before(async () => {
    tk = await startKernel({
      plugins: PLUGINS,
      settings: { studio: { collab: { idle_save_ms: 60_000, linger_ms: 200, compact_after: 10 } } },
    });
    admin = await loginAdmin(tk);
    writer = await mintToken(tk, admin, ['builder']);
    viewer = await mintToken(tk, admin, ['viewer']);
  });
  afterEach(async () => {
    await Promise.all(
      clients.splice(0).map(async (c) => {
        await c.close();
        c.destroy();
      }),
    );
  });
  after(() => tk?.close());

  const knex = () => tk.kernel.database.knex;
  async function workspace(id: string, files: Record<string, string>): Promise<void> {
    const res = await tk.request('POST', '/studio/workspaces', { token: admin, body: { id, name: id, files } });
    expect(res.status, res.text).to.equal(201);
  }
  async function join(id: string, token = admin): Promise<YClient> {
    const client = await YClient.join(tk, await studioTicket(tk, token, id, 'collab'));
    clients.push(client);
    return client;
  }

  it("gives a joining client the workspace's files as one Y.Text each", async () => {
    await workspace('seeded', { 'main.js': 'result = 1;\n', 'lib/x.js': 'export const x = 1;\n' });
    const a = await join('seeded');
    expect(a.text('main.js')).to.equal('result = 1;\n');
    expect(a.text('lib/x.js')).to.equal('export const x = 1;\n');
    expect(await knex()('studio_collab_docs').where({ tenant_id: 'default', workspace_id: 'seeded' })).to.have.length(
      1,
    );
  });

  it('converges two clients editing the same file at once; a third joining later gets the merged text; a save makes it a revision', async () => {
    await workspace('pair', { 'main.js': 'const a = 1;\nresult = a;\n' });
    const a = await join('pair', admin);
    const b = await join('pair', writer);
    // Concurrent: neither waits for the other's edit.
    a.ytext('main.js').insert(0, '// by a\n');
    b.ytext('main.js').insert(b.ytext('main.js').length, '// by b\n');
    a.ytext('main.js').insert(a.ytext('main.js').length, 'console.log(a);\n');
    await waitUntil(
      () =>
        a.text('main.js') === b.text('main.js') &&
        (a.text('main.js') ?? '').includes('// by b') &&
        (b.text('main.js') ?? '').includes('console.log'),
      15_000,
      'convergence',
    );
    const merged = a.text('main.js') as string;
    expect(merged.startsWith('// by a\nconst a = 1;\nresult = a;\n')).to.equal(true);
    expect(merged).to.contain('// by b\n').and.contain('console.log(a);\n');

    const c = await join('pair', writer);
    expect(c.text('main.js')).to.equal(merged);

    const answer = await b.save();
    expect(answer.saved).to.include({ revision: 2, unchanged: false });
    const files = await tk.request('GET', '/studio/workspaces/pair/files?revision=2', { token: admin });
    expect(files.body.files['main.js']).to.equal(merged);
    const revision = await knex()('studio_revisions')
      .where({ tenant_id: 'default', workspace_id: 'pair', revision: 2 })
      .first();
    expect(revision).to.include({ source: 'collab' });
    const audited = await knex()('audit_records').where({
      tenant_id: 'default',
      operation: 'openCollabSocket',
      resource_id: 'pair',
    });
    expect(audited.map((r: any) => (typeof r.fields === 'string' ? JSON.parse(r.fields) : r.fields))).to.deep.equal([
      { command: 'save', revision: 2 },
    ]);
    // A save that changes nothing makes no revision.
    expect((await a.save()).saved).to.include({ revision: 2, unchanged: true });
  });

  it('gives a reconnecting client what it missed and takes the edits it made offline', async () => {
    await workspace('reconnect', { 'main.js': 'base\n' });
    const a = await join('reconnect');
    const b = await join('reconnect');
    await b.close();
    // Offline: b edits its own copy while a edits through the server.
    b.ytext('main.js').insert(0, 'offline b\n');
    a.ytext('main.js').insert(a.ytext('main.js').length, 'online a\n');
    await waitUntil(
      async () =>
        (await knex()('studio_collab_updates').where({ tenant_id: 'default', workspace_id: 'reconnect' })).length >= 2,
      10_000,
      "a's edit stored",
    );
    const back = await YClient.join(tk, await studioTicket(tk, admin, 'reconnect', 'collab'), b.doc);
    clients.push(back);
    await waitUntil(
      () => a.text('main.js') === back.text('main.js') && (a.text('main.js') ?? '').includes('offline b'),
      10_000,
      'convergence after the reconnect',
    );
    expect(a.text('main.js')).to.equal('offline b\nbase\nonline a\n');
  });

  it("relays awareness (who is here, cursors) between clients, viewers included, and drops a client's state when it leaves", async () => {
    await workspace('aware', { 'main.js': '' });
    const a = await join('aware', writer);
    const b = await join('aware', viewer);
    a.awareness.setLocalState({ user: 'a', cursor: 3 });
    b.awareness.setLocalState({ user: 'b' });
    await waitUntil(
      () =>
        b.awareness.getStates().get(a.doc.clientID)?.user === 'a' &&
        a.awareness.getStates().get(b.doc.clientID)?.user === 'b',
      10_000,
      'awareness both ways',
    );
    const c = await join('aware', writer);
    await waitUntil(
      () => c.awareness.getStates().get(a.doc.clientID)?.cursor === 3,
      10_000,
      'awareness for a late joiner',
    );
    await a.close();
    await waitUntil(() => !b.awareness.getStates().has(a.doc.clientID), 10_000, "a's state removed");
  });

  it('keeps a viewer read-only: its edits are refused and reach nobody, its save too', async () => {
    await workspace('viewed', { 'main.js': 'result = 1;\n' });
    const editor = await join('viewed', writer);
    const watcher = await join('viewed', viewer);
    watcher.ytext('main.js').insert(0, 'EVIL ');
    await waitUntil(() => watcher.statuses.some((s) => s.error?.code === 'read_only'), 10_000, 'the read-only refusal');
    editor.ytext('main.js').insert(0, '// ok\n');
    await waitUntil(() => (watcher.text('main.js') ?? '').includes('// ok'), 10_000, "the editor's edit at the viewer");
    expect(editor.text('main.js')).to.equal('// ok\nresult = 1;\n');
    expect((await watcher.save()).error).to.include({ code: 'forbidden' });
    const saved = await editor.save();
    expect(saved.saved.revision).to.equal(2);
    expect(
      (await tk.request('GET', '/studio/workspaces/viewed/files', { token: admin })).body.files['main.js'],
    ).to.equal('// ok\nresult = 1;\n');
  });

  it('takes a PUT .../files into the open document', async () => {
    await workspace('api-edit', { 'main.js': 'result = 1;\n', 'old.js': 'x' });
    const a = await join('api-edit');
    const put = await tk.request('PUT', '/studio/workspaces/api-edit/files', {
      token: admin,
      body: { files: { 'main.js': 'result = 2;\n', 'new.js': 'y' }, delete: ['old.js'] },
    });
    expect(put.status).to.equal(200);
    await waitUntil(
      () => a.text('main.js') === 'result = 2;\n' && a.text('new.js') === 'y' && a.text('old.js') === undefined,
      10_000,
      'the API change in the document',
    );
    // Nothing to save: the document equals the revision the PUT made.
    expect((await a.save()).saved).to.include({ revision: 2, unchanged: true });
  });

  it('stores edits append-only and compacts them with Y.mergeUpdates when a document is loaded again', async () => {
    await workspace('compact', { 'main.js': '' });
    const a = await join('compact');
    for (let i = 0; i < 15; i++) {
      a.ytext('main.js').insert(a.ytext('main.js').length, `${i};`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const expected = Array.from({ length: 15 }, (_, i) => `${i};`).join('');
    await waitUntil(
      async () =>
        (await knex()('studio_collab_updates').where({ tenant_id: 'default', workspace_id: 'compact' })).length >= 10,
      10_000,
      'stored updates',
    );
    await a.close();
    // The room lingers 200 ms after its last client, then is put away; the next join loads and compacts.
    await new Promise((r) => setTimeout(r, 600));
    const b = await join('compact');
    expect(b.text('main.js')).to.equal(expected);
    await waitUntil(
      async () =>
        (await knex()('studio_collab_updates').where({ tenant_id: 'default', workspace_id: 'compact' })).length === 1,
      10_000,
      'compaction',
    );
    const c = await join('compact');
    expect(c.text('main.js')).to.equal(expected);
    // Putting the room away saved the unsaved edits.
    expect(
      (await tk.request('GET', '/studio/workspaces/compact/files', { token: admin })).body.files['main.js'],
    ).to.equal(expected);
  });

  it("closes the document's sockets when the workspace is deleted", async () => {
    await workspace('doomed', { 'main.js': '' });
    const a = await join('doomed');
    expect((await tk.request('DELETE', '/studio/workspaces/doomed', { token: admin })).status).to.equal(204);
    await waitUntil(() => a.closedWith !== undefined, 10_000, 'the close');
    expect(a.closedWith?.code).to.equal(4404);
    expect(
      await knex()('studio_collab_updates').where({ tenant_id: 'default', workspace_id: 'doomed' }),
    ).to.have.length(0);
  });
});

describe('studio collab: unsaved edits are bounded', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({
      plugins: PLUGINS,
      settings: { studio: { max_workspace_bytes: 3000, collab: { idle_save_ms: 60_000 } } },
    });
    admin = await loginAdmin(tk);
  });
  after(() => tk?.close());

  it('closes a client (1009) that sends more unsaved edits than four workspaces hold; the others never see them', async () => {
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'bounded', name: 'bounded', files: { 'main.js': '' } },
        })
      ).status,
    ).to.equal(201);
    const flooder = await YClient.join(tk, await studioTicket(tk, admin, 'bounded', 'collab'));
    const other = await YClient.join(tk, await studioTicket(tk, admin, 'bounded', 'collab'));
    flooder.ytext('main.js').insert(0, 'ok;');
    await waitUntil(() => other.text('main.js') === 'ok;', 10_000, 'a small edit');
    flooder.ytext('main.js').insert(3, 'x'.repeat(13_000));
    await waitUntil(() => flooder.closedWith !== undefined, 10_000, 'the close');
    expect(flooder.closedWith?.code).to.equal(1009);
    expect(flooder.statuses.some((s) => s.error?.code === 'payload_too_large')).to.equal(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(other.text('main.js')).to.equal('ok;');
    await other.close();
    flooder.destroy();
    other.destroy();
  });
});

describe('studio collab: saving after an idle period', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS, settings: { studio: { collab: { idle_save_ms: 300 } } } });
    admin = await loginAdmin(tk);
  });
  after(() => tk?.close());

  it('makes a revision of the merged text once nobody edited for idle_save_ms', async () => {
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'idle', name: 'idle', files: { 'main.js': 'a' } },
        })
      ).status,
    ).to.equal(201);
    const client = await YClient.join(tk, await studioTicket(tk, admin, 'idle', 'collab'));
    client.ytext('main.js').insert(1, 'bc');
    await waitUntil(
      async () => (await tk.request('GET', '/studio/workspaces/idle', { token: admin })).body.revision === 2,
      10_000,
      'the idle save',
    );
    expect((await tk.request('GET', '/studio/workspaces/idle/files', { token: admin })).body.files['main.js']).to.equal(
      'abc',
    );
    expect(client.statuses.some((s) => s.saved?.revision === 2)).to.equal(true);
    await client.close();
    client.destroy();
  });
});
