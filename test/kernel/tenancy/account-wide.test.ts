import { expect } from 'chai';
import { TEST_PROFILE_PLUGINS, startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, createUser, login, loginAdmin, mintToken } from '../../support/identity.js';

/**
 * tenant_id=* (spec §5): with runtime:account:admin a read of any list lists every tenant's
 * rows, each naming its tenant; the kernel provides it for every list route of every plugin.
 */
describe('account-wide scope (tenant_id=*)', function () {
  this.timeout(120_000);
  let k: TestKernel;
  let account: string;
  let tenantAdmin: string;

  before(async () => {
    k = await startKernel({
      plugins: [...TEST_PROFILE_PLUGINS, { module: 'test/fixtures/third-party-plugin' }],
      // A provider the agent never calls here: its conversation list is one more list route.
      settings: { agent: { provider: 'openai', model: 'unused', base_url: 'http://127.0.0.1:9/v1' } },
    });
    account = await loginAdmin(k);
    for (const tenant of ['alpha', 'beta', 'gamma']) await createTenant(k, account, tenant);
    // Rows in three tenants, in an order that interleaves their ids.
    const rows: Array<[string, string]> = [
      ['alpha', 'c1'],
      ['beta', 'a1'],
      ['beta', 'b1'],
      ['gamma', 'a2'],
      ['default', 'z9'],
      ['alpha', 'a3'],
    ];
    for (const [tenant, id] of rows) {
      expect(
        (
          await k.request('POST', '/components', {
            token: account,
            body: { type: 'passthrough', tenant_id: tenant, id, name: id },
          })
        ).status,
      ).to.equal(201);
      expect(
        (await k.request('POST', '/notes', { token: account, body: { tenant_id: tenant, id, title: `t-${id}` } }))
          .status,
      ).to.equal(201);
    }
    await createUser(k, account, {
      tenantId: 'beta',
      username: 'beta-admin',
      password: 'beta-admin-password-1',
      roles: ['admin'],
    });
    tenantAdmin = (await login(k, { tenant_id: 'beta', username: 'beta-admin', password: 'beta-admin-password-1' }))
      .access_token;
  });
  after(() => k.close());

  it("lists every tenant's components, ordered by tenant then id, each naming its tenant", async () => {
    const res = await k.request('GET', '/components?tenant_id=*&limit=100', { token: account });
    expect(res.status).to.equal(200);
    expect(res.body.items.map((c: { tenant_id: string; id: string }) => `${c.tenant_id}/${c.id}`)).to.deep.equal([
      'alpha/a3',
      'alpha/c1',
      'beta/a1',
      'beta/b1',
      'default/z9',
      'gamma/a2',
    ]);
  });

  it('pages across tenants with a cursor bound to the scope, resuming inside a tenant', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/components?tenant_id=*&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await k.request('GET', path, { token: account });
      expect(res.status).to.equal(200);
      expect(res.body.items.length).to.be.at.most(2);
      seen.push(...res.body.items.map((c: { tenant_id: string; id: string }) => `${c.tenant_id}/${c.id}`));
      cursor = res.headers.get('x-next-cursor');
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).to.deep.equal(['alpha/a3', 'alpha/c1', 'beta/a1', 'beta/b1', 'default/z9', 'gamma/a2']);

    // A cursor of the account-wide list is not a cursor of one tenant's list, nor the reverse.
    const first = await k.request('GET', '/components?tenant_id=*&limit=2', { token: account });
    const foreign = await k.request(
      'GET',
      `/components?tenant_id=beta&cursor=${encodeURIComponent(first.headers.get('x-next-cursor') as string)}`,
      { token: account },
    );
    expect(foreign.status).to.equal(400);
    const oneTenant = await k.request('GET', '/components?tenant_id=beta&limit=1', { token: account });
    const reused = await k.request(
      'GET',
      `/components?tenant_id=*&cursor=${encodeURIComponent(oneTenant.headers.get('x-next-cursor') as string)}`,
      { token: account },
    );
    expect(reused.status).to.equal(400);
  });

  it("works for a third-party plugin's list with a body cursor and a two-column key, without the plugin knowing", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await k.request(
        'GET',
        `/notes?tenant_id=*&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: account },
      );
      expect(res.status).to.equal(200);
      seen.push(...res.body.items.map((n: { tenant_id: string; title: string }) => `${n.tenant_id}/${n.title}`));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).to.deep.equal(['alpha/t-a3', 'alpha/t-c1', 'beta/t-a1', 'beta/t-b1', 'default/t-z9', 'gamma/t-a2']);
  });

  it("applies the list's filters in every tenant", async () => {
    // Processors run from their creation: stopping two is the filter's test.
    await k.request('POST', '/components/a1/stop', { token: account, body: { tenant_id: 'beta' } });
    await k.request('POST', '/components/a2/stop', { token: account, body: { tenant_id: 'gamma' } });
    const res = await k.request('GET', '/components?tenant_id=*&state=stopped', { token: account });
    expect(res.status).to.equal(200);
    expect(res.body.items.map((c: { tenant_id: string; id: string }) => `${c.tenant_id}/${c.id}`)).to.deep.equal([
      'beta/a1',
      'gamma/a2',
    ]);
  });

  it('lists users and API tokens of every tenant too (identity lists)', async () => {
    const users = await k.request('GET', '/users?tenant_id=*', { token: account });
    expect(users.status).to.equal(200);
    const names = users.body.items.map((u: { tenant_id: string; username: string }) => `${u.tenant_id}/${u.username}`);
    expect(names).to.include.members(['beta/beta-admin', 'default/admin']);
    await mintToken(k, account, ['viewer'], { tenantId: 'gamma', name: 'gamma token' });
    const tokens = await k.request('GET', '/api-tokens?tenant_id=*', { token: account });
    expect(tokens.body.items.map((t: { tenant_id: string; name: string }) => `${t.tenant_id}/${t.name}`)).to.include(
      'gamma/gamma token',
    );
  });

  it('is 403 without runtime:account:admin, even for a tenant admin', async () => {
    const res = await k.request('GET', '/components?tenant_id=*', { token: tenantAdmin });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('forbidden');
  });

  it('is 400 on a write or a read of one resource, and stores nothing under "*"', async () => {
    const write = await k.request('POST', '/components', {
      token: account,
      body: { type: 'passthrough', tenant_id: '*', name: 'star' },
    });
    expect(write.status).to.equal(400);
    expect(write.body.error.details[0]).to.include({ in: 'body', pointer: '/tenant_id' });
    const deleteOne = await k.request('DELETE', '/components/a1?tenant_id=*', { token: account });
    expect(deleteOne.status).to.equal(400);
    const readOne = await k.request('GET', '/components/a1?tenant_id=*', { token: account });
    expect(readOne.status).to.equal(400);
    const stored = await k.kernel.database.knex('components').where({ tenant_id: '*' });
    expect(stored).to.deep.equal([]);
  });

  it('answers 404 to a write or read naming a tenant that does not exist, and creates no trail for it', async () => {
    const write = await k.request('POST', '/components', {
      token: account,
      body: { type: 'passthrough', tenant_id: 'nowhere', name: 'lost' },
    });
    expect(write.status).to.equal(404);
    expect(write.body.error.code).to.equal('not_found');
    const read = await k.request('GET', '/components?tenant_id=nowhere', { token: account });
    expect(read.status).to.equal(404);
    const trail = await k.kernel.database.knex('audit_records').where({ tenant_id: 'nowhere' });
    expect(trail).to.deep.equal([]);
    const components = await k.kernel.database.knex('components').where({ tenant_id: 'nowhere' });
    expect(components).to.deep.equal([]);
  });

  it('covers every list route of every enabled plugin: 200 with tenant-named items for the account admin, 403 for a tenant admin', async () => {
    const lists = k.kernel.catalog.routes.filter(
      (r) => !r.mutating && r.tenancy === 'tenant' && r.decl.paging && !r.path.includes('{'),
    );
    expect(lists.map((r) => r.decl.operation)).to.include.members([
      'listComponents',
      'listNotes',
      'listUsers',
      'listAudit',
      'listLogs',
    ]);
    for (const route of lists) {
      const allowed = await k.request('GET', `${route.path}?tenant_id=*`, { token: account });
      expect(allowed.status, `${route.path}: ${allowed.text}`).to.equal(200);
      for (const item of allowed.body.items) expect(item, route.path).to.have.property('tenant_id').that.is.a('string');
      const refused = await k.request('GET', `${route.path}?tenant_id=*`, { token: tenantAdmin });
      expect(refused.status, route.path).to.be.oneOf([403]);
    }
  });
});
