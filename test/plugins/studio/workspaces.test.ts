import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

describe('studio: workspaces, files, revisions and ETags', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let other: string;
  let viewer: string;

  before(async () => {
    tk = await startKernel({
      plugins: PLUGINS,
      settings: { studio: { max_file_bytes: 1000, max_files: 5, max_workspace_bytes: 3000 } },
    });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'studio-other');
    other = await mintToken(tk, admin, ['admin'], { tenantId: 'studio-other' });
    viewer = await mintToken(tk, admin, ['viewer']);
  });
  after(() => tk?.close());

  const knex = () => tk.kernel.database.knex;
  async function auditCount(operation: string, resourceId: string): Promise<number> {
    return (await knex()('audit_records').where({ operation, resource_id: resourceId, tenant_id: 'default' })).length;
  }
  async function create(id: string, files?: Record<string, string>) {
    const res = await tk.request('POST', '/studio/workspaces', {
      token: admin,
      body: { id, name: `Workspace ${id}`, ...(files ? { files } : {}) },
    });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  describe('workspaces', () => {
    it('creates a workspace at revision 1 with its files, slugging the name when no id is given, one audit record', async () => {
      const res = await tk.request('POST', '/studio/workspaces', {
        token: admin,
        body: { name: 'Order Router', files: { 'main.js': 'result = 1;', 'lib/util.js': 'export const x = 1;' } },
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('location')).to.equal('/studio/workspaces/order-router');
      expect(res.body).to.include({
        id: 'order-router',
        tenant_id: 'default',
        name: 'Order Router',
        revision: 1,
        file_count: 2,
        bytes: 11 + 19,
      });
      const rows = await knex()('studio_revisions').where({ tenant_id: 'default', workspace_id: 'order-router' });
      expect(rows.map((r: any) => [r.revision, r.source, r.file_count])).to.deep.equal([[1, 'api', 2]]);
      expect(await auditCount('createWorkspace', 'order-router')).to.equal(1);
    });

    it('answers a taken id with 409 and keeps the first', async () => {
      const res = await tk.request('POST', '/studio/workspaces', {
        token: admin,
        body: { id: 'order-router', name: 'again' },
      });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('duplicate_identifier');
      expect(
        (await knex()('studio_workspaces').where({ tenant_id: 'default', id: 'order-router' }).first()).name,
      ).to.equal('Order Router');
    });

    it('reads, lists (paged), patches and deletes, each tenant seeing only its own', async () => {
      await create('list-a');
      await create('list-b');
      const page = await tk.request('GET', '/studio/workspaces?limit=2', { token: admin });
      expect(page.status).to.equal(200);
      expect(page.body.items.map((w: any) => w.id)).to.deep.equal(['list-a', 'list-b']);
      expect(page.headers.get('x-next-cursor')).to.be.a('string');
      const patched = await tk.request('PATCH', '/studio/workspaces/list-a', {
        token: admin,
        body: { description: 'the first' },
      });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.include({ description: 'the first', revision: 1 });
      expect((await tk.request('GET', '/studio/workspaces/list-a', { token: other })).status).to.equal(404);
      expect((await tk.request('GET', '/studio/workspaces', { token: other })).body.items).to.deep.equal([]);
      expect((await tk.request('DELETE', '/studio/workspaces/list-a', { token: other })).status).to.equal(404);
      expect((await tk.request('DELETE', '/studio/workspaces/list-b', { token: admin })).status).to.equal(204);
      expect((await tk.request('GET', '/studio/workspaces/list-b', { token: admin })).status).to.equal(404);
      expect(await knex()('studio_revisions').where({ tenant_id: 'default', workspace_id: 'list-b' })).to.have.length(
        0,
      );
      expect(await auditCount('deleteWorkspace', 'list-b')).to.equal(1);
    });

    it('lets a viewer read but not write (studio:read / studio:write are in the built-in roles)', async () => {
      expect((await tk.request('GET', '/studio/workspaces/order-router/files', { token: viewer })).status).to.equal(
        200,
      );
      const refused = await tk.request('PUT', '/studio/workspaces/order-router/files', {
        token: viewer,
        body: { files: { 'x.js': '' } },
      });
      expect(refused.status).to.equal(403);
      const roles = await tk.request('GET', '/roles', { token: admin });
      const byId = Object.fromEntries(roles.body.items.map((r: any) => [r.id, r.permissions]));
      expect(byId.viewer).to.include('studio:read').and.not.include('studio:write');
      expect(byId.builder).to.include.members(['studio:read', 'studio:write']);
    });

    it('puts studio:write into a custom role', async () => {
      const res = await tk.request('POST', '/roles', {
        token: admin,
        body: { id: 'studio-editor', description: 'edits workspaces', permissions: ['studio:read', 'studio:write'] },
      });
      expect(res.status, res.text).to.equal(201);
      const editor = await mintToken(tk, admin, ['studio-editor']);
      expect(
        (
          await tk.request('POST', '/studio/workspaces', {
            token: editor,
            body: { id: 'by-editor', name: 'by editor' },
          })
        ).status,
      ).to.equal(201);
    });
  });

  describe('files and revisions', () => {
    it('makes a new revision on every PUT with its ETag; GET reads the current one or ?revision=N', async () => {
      await create('revs', { 'main.js': 'result = 1;' });
      const put = await tk.request('PUT', '/studio/workspaces/revs/files', {
        token: admin,
        body: { files: { 'main.js': 'result = 2;', 'tests/a.json': '{}' } },
      });
      expect(put.status, put.text).to.equal(200);
      expect(put.headers.get('etag')).to.equal('"2"');
      expect(put.body).to.deep.equal({
        workspace_id: 'revs',
        revision: 2,
        files: { 'main.js': 'result = 2;', 'tests/a.json': '{}' },
      });
      const removed = await tk.request('PUT', '/studio/workspaces/revs/files', {
        token: admin,
        headers: { 'if-match': '"2"' },
        body: { files: {}, delete: ['tests/a.json'] },
      });
      expect(removed.status, removed.text).to.equal(200);
      expect(removed.body).to.deep.equal({ workspace_id: 'revs', revision: 3, files: { 'main.js': 'result = 2;' } });
      const current = await tk.request('GET', '/studio/workspaces/revs/files', { token: admin });
      expect(current.headers.get('etag')).to.equal('"3"');
      expect(current.body.files).to.deep.equal({ 'main.js': 'result = 2;' });
      const first = await tk.request('GET', '/studio/workspaces/revs/files?revision=1', { token: admin });
      expect(first.status).to.equal(200);
      expect(first.headers.get('etag')).to.equal('"1"');
      expect(first.body).to.deep.equal({ workspace_id: 'revs', revision: 1, files: { 'main.js': 'result = 1;' } });
      expect((await tk.request('GET', '/studio/workspaces/revs/files?revision=9', { token: admin })).status).to.equal(
        404,
      );
      const list = await tk.request('GET', '/studio/workspaces/revs/revisions', { token: admin });
      expect(list.status).to.equal(200);
      expect(list.body.items.map((r: any) => [r.revision, r.changed, r.deleted, r.file_count])).to.deep.equal([
        [1, ['main.js'], [], 1],
        [2, ['main.js', 'tests/a.json'], [], 2],
        [3, [], ['tests/a.json'], 1],
      ]);
      expect(await auditCount('putWorkspaceFiles', 'revs')).to.equal(2);
    });

    it('answers a stale If-Match with 412 and writes nothing', async () => {
      const res = await tk.request('PUT', '/studio/workspaces/revs/files', {
        token: admin,
        headers: { 'if-match': '"1"' },
        body: { files: { 'main.js': 'result = 3;' } },
      });
      expect(res.status).to.equal(412);
      expect(res.body.error).to.include({ code: 'precondition_failed', status: 412 });
      expect((await knex()('studio_workspaces').where({ tenant_id: 'default', id: 'revs' }).first()).revision).to.equal(
        3,
      );
      expect(await knex()('studio_revisions').where({ tenant_id: 'default', workspace_id: 'revs' })).to.have.length(3);
      expect(
        (
          await tk.request('PUT', '/studio/workspaces/revs/files', {
            token: admin,
            headers: { 'if-match': '*' },
            body: { files: {} },
          })
        ).status,
      ).to.equal(200);
    });

    const badPaths: Array<[string, string]> = [
      ['../etc/passwd', '".." segment'],
      ['a/../../b', '".." segment'],
      ['/abs.js', 'absolute'],
      ['a//b.js', 'empty segment'],
      ['dir/', 'empty segment'],
      ['./a.js', '"." segment'],
      ['a\\b.js', 'backslash'],
      ['tab\there.js', 'control character'],
      ['x'.repeat(257), 'longer than 256'],
    ];
    for (const [path, why] of badPaths) {
      it(`refuses the path ${JSON.stringify(path.slice(0, 30))} (${why}) with 400 naming it`, async () => {
        const res = await tk.request('PUT', '/studio/workspaces/revs/files', {
          token: admin,
          body: { files: { [path]: 'x' } },
        });
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error.code).to.equal('validation_error');
        expect(JSON.stringify(res.body.error.details)).to.contain(
          path.length > 256
            ? 'files'
            : path.replace(/\//g, '~1').replace(/\\/g, '\\\\').slice(0, 10).replace(/\t/g, '\\t'),
        );
      });
    }

    it('refuses a NUL in a path or in a file as hostile input (400)', async () => {
      expect(
        (
          await tk.request('PUT', '/studio/workspaces/revs/files', {
            token: admin,
            raw: '{"files":{"a\\u0000.js":"x"}}',
          })
        ).status,
      ).to.equal(400);
      expect(
        (
          await tk.request('PUT', '/studio/workspaces/revs/files', {
            token: admin,
            raw: '{"files":{"a.js":"x\\u0000"}}',
          })
        ).status,
      ).to.equal(400);
    });

    it('holds a file to max_file_bytes, a workspace to max_files and max_workspace_bytes (settings)', async () => {
      await create('limits');
      const big = await tk.request('PUT', '/studio/workspaces/limits/files', {
        token: admin,
        body: { files: { 'big.js': 'x'.repeat(1001) } },
      });
      expect(big.status).to.equal(400);
      expect(big.body.error.details[0]).to.include({ pointer: '/files/big.js' });
      const many = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.js`, '1']));
      const tooMany = await tk.request('PUT', '/studio/workspaces/limits/files', {
        token: admin,
        body: { files: many },
      });
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.error.message).to.contain('at most 5 files');
      const heavy = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`h${i}.js`, 'y'.repeat(1000)]));
      const tooHeavy = await tk.request('PUT', '/studio/workspaces/limits/files', {
        token: admin,
        body: { files: heavy },
      });
      expect(tooHeavy.status).to.equal(400);
      expect(tooHeavy.body.error.message).to.contain('at most 3000 bytes');
      // Multi-byte text counts in UTF-8 bytes: 400 × "é" is 800 bytes, 600 is 1200.
      expect(
        (
          await tk.request('PUT', '/studio/workspaces/limits/files', {
            token: admin,
            body: { files: { 'e.txt': 'é'.repeat(400) } },
          })
        ).status,
      ).to.equal(200);
      expect(
        (
          await tk.request('PUT', '/studio/workspaces/limits/files', {
            token: admin,
            body: { files: { 'e.txt': 'é'.repeat(600) } },
          })
        ).status,
      ).to.equal(400);
      expect(
        (await knex()('studio_workspaces').where({ tenant_id: 'default', id: 'limits' }).first()).revision,
      ).to.equal(2);
    });

    it('refuses deleting a file that does not exist, or one also written', async () => {
      const missing = await tk.request('PUT', '/studio/workspaces/revs/files', {
        token: admin,
        body: { files: {}, delete: ['nope.js'] },
      });
      expect(missing.status).to.equal(400);
      expect(missing.body.error.details[0]).to.include({ pointer: '/delete/0' });
      const both = await tk.request('PUT', '/studio/workspaces/revs/files', {
        token: admin,
        body: { files: { 'main.js': '' }, delete: ['main.js'] },
      });
      expect(both.status).to.equal(400);
    });

    it("answers 404 for another tenant's workspace files", async () => {
      expect((await tk.request('GET', '/studio/workspaces/revs/files', { token: other })).status).to.equal(404);
      expect(
        (await tk.request('PUT', '/studio/workspaces/revs/files', { token: other, body: { files: { 'a.js': '' } } }))
          .status,
      ).to.equal(404);
      expect((await tk.request('GET', '/studio/workspaces/revs/revisions', { token: other })).status).to.equal(404);
    });
  });
});
