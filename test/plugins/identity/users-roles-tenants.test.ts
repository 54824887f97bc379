import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, createUser, login, loginAdmin } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'user password 000001';

describe('tenants, users and roles', () => {
  let tk: TestKernel;
  let root: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    root = await loginAdmin(tk);
  });
  after(() => tk.close());

  describe('/tenants', () => {
    it('creates a tenant with a slug id and lists it; a taken id is 409', async () => {
      const res = await tk.request('POST', '/tenants', { token: root, body: { name: 'Northwind Traders' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ id: 'northwind-traders', name: 'Northwind Traders' });
      const again = await tk.request('POST', '/tenants', { token: root, body: { id: 'northwind-traders', name: 'x' } });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('duplicate_identifier');
      const list = await tk.request('GET', '/tenants', { token: root });
      expect(list.body.items.map((t: { id: string }) => t.id)).to.include.members(['default', 'northwind-traders']);
    });

    it('needs the account-wide permission: a tenant admin gets 403', async () => {
      await createUser(tk, root, { username: 'tenant-admin', password: PASSWORD, roles: ['admin'] });
      const admin = (await login(tk, { tenant_id: 'default', username: 'tenant-admin', password: PASSWORD }))
        .access_token;
      const res = await tk.request('POST', '/tenants', { token: admin, body: { name: 'Sneaky' } });
      expect(res.status).to.equal(403);
      expect(res.body.error.message).to.include('runtime:account:admin');
      expect(await tk.kernel.database.knex('identity_tenants').where({ id: 'sneaky' })).to.have.length(0);
      // Account-wide scope (*) is refused too.
      expect((await tk.request('GET', '/users?tenant_id=*', { token: admin })).status).to.equal(403);
    });
  });

  describe('/users', () => {
    it('creates, reads, lists and patches users without ever showing a password hash', async () => {
      const created = await tk.request('POST', '/users', {
        token: root,
        body: { username: 'Ada.Lovelace', password: PASSWORD, email: 'ada@example.com', roles: ['viewer'] },
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({
        id: 'ada-lovelace',
        username: 'Ada.Lovelace',
        email: 'ada@example.com',
        disabled: false,
        tenant_id: 'default',
      });
      expect(created.text).to.not.include('scrypt').and.to.not.include(PASSWORD);
      const dup = await tk.request('POST', '/users', {
        token: root,
        body: { id: 'another-id', username: 'ada.lovelace', password: PASSWORD },
      });
      expect(dup.status).to.equal(409);

      expect((await tk.request('GET', '/users/ada-lovelace', { token: root })).body.roles).to.deep.equal(['viewer']);
      const list = await tk.request('GET', '/users', { token: root });
      expect(list.body.items.map((u: { id: string }) => u.id)).to.include('ada-lovelace');
      expect(list.text).to.not.include('scrypt');

      const short = await tk.request('POST', '/users', {
        token: root,
        body: { username: 'shorty', password: 'short' },
      });
      expect(short.status).to.equal(400);
      expect(short.body.error.details[0].pointer).to.equal('/password');
    });

    it('login is case-insensitive on the username; a new password revokes sessions and works', async () => {
      const session = await login(tk, { tenant_id: 'default', username: 'ADA.LOVELACE', password: PASSWORD });
      expect((await tk.request('GET', '/components', { token: session.access_token })).status).to.equal(200);
      const changed = await tk.request('PATCH', '/users/ada-lovelace', {
        token: root,
        body: { password: 'a brand new password' },
      });
      expect(changed.status, changed.text).to.equal(200);
      expect((await tk.request('GET', '/components', { token: session.access_token })).status).to.equal(401);
      expect(
        (
          await tk.request('POST', '/auth/login', {
            body: { tenant_id: 'default', username: 'ada.lovelace', password: PASSWORD },
          })
        ).status,
      ).to.equal(401);
      await login(tk, { tenant_id: 'default', username: 'ada.lovelace', password: 'a brand new password' });
    });

    it('disabling a user revokes its sessions at once and refuses its logins', async () => {
      await createUser(tk, root, { username: 'to-disable', password: PASSWORD, roles: ['viewer'] });
      const session = await login(tk, { tenant_id: 'default', username: 'to-disable', password: PASSWORD });
      const res = await tk.request('PATCH', '/users/to-disable', { token: root, body: { disabled: true } });
      expect(res.status).to.equal(200);
      expect(res.body.disabled).to.equal(true);
      expect((await tk.request('GET', '/components', { token: session.access_token })).status).to.equal(401);
      expect(
        (await tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } })).status,
      ).to.equal(401);
      const revoked = await tk.kernel.database.knex('identity_sessions').where({ id: session.session_id }).first();
      expect(revoked.revoked_reason).to.equal('user_disabled');
    });

    it('deleting a user ends its sessions; unknown users are 404', async () => {
      await createUser(tk, root, { username: 'to-delete', password: PASSWORD, roles: ['viewer'] });
      const session = await login(tk, { tenant_id: 'default', username: 'to-delete', password: PASSWORD });
      expect((await tk.request('DELETE', '/users/to-delete', { token: root })).status).to.equal(204);
      expect((await tk.request('GET', '/components', { token: session.access_token })).status).to.equal(401);
      expect((await tk.request('GET', '/users/to-delete', { token: root })).status).to.equal(404);
      expect((await tk.request('DELETE', '/users/to-delete', { token: root })).status).to.equal(404);
    });

    it('a tenant admin cannot take over a user who holds more than it does', async () => {
      const admin = (await login(tk, { tenant_id: 'default', username: 'tenant-admin', password: PASSWORD }))
        .access_token;
      const res = await tk.request('PATCH', '/users/admin', {
        token: admin,
        body: { password: 'hijacked password 1' },
      });
      expect(res.status).to.equal(403);
      expect(res.body.error.message).to.include('runtime:account:admin');
      expect(
        (await tk.request('PUT', '/users/tenant-admin/roles', { token: admin, body: { roles: ['account-admin'] } }))
          .status,
      ).to.equal(403);
      await loginAdmin(tk);
    });

    it("another tenant's user is 404, by id and by tenant_id", async () => {
      await createTenant(tk, root, 'globex');
      await createUser(tk, root, {
        tenantId: 'globex',
        username: 'globex-admin',
        password: PASSWORD,
        roles: ['admin'],
      });
      const globex = (await login(tk, { tenant_id: 'globex', username: 'globex-admin', password: PASSWORD }))
        .access_token;
      expect((await tk.request('GET', '/users/ada-lovelace', { token: globex })).status).to.equal(404);
      const byTenant = await tk.request('GET', '/users?tenant_id=default', { token: globex });
      expect(byTenant.status).to.equal(404);
      expect(byTenant.body.error.code).to.equal('not_found');
      const write = await tk.request('POST', '/users', {
        token: globex,
        body: { tenant_id: 'default', username: 'planted', password: PASSWORD },
      });
      expect(write.status).to.equal(404);
      const own = await tk.request('GET', '/users', { token: globex });
      expect(own.body.items.map((u: { id: string }) => u.id)).to.deep.equal(['globex-admin']);
    });
  });

  describe('/roles', () => {
    it('lists built-in roles derived from the declared permissions', async () => {
      const res = await tk.request('GET', '/roles', { token: root });
      expect(res.status).to.equal(200);
      const byId = new Map(res.body.items.map((r: { id: string }) => [r.id, r]));
      for (const id of ['account-admin', 'admin', 'builder', 'operator', 'viewer'])
        expect(byId.has(id), id).to.equal(true);
      const viewer = byId.get('viewer') as { permissions: string[] };
      expect(viewer.permissions).to.include.members(['runtime:component:read', 'runtime:identity:read']);
      expect(viewer.permissions.every((p) => p.endsWith(':read'))).to.equal(true);
      const builder = byId.get('builder') as { permissions: string[] };
      expect(builder.permissions).to.include('runtime:component:write').and.to.not.include('runtime:identity:write');
      expect((byId.get('admin') as { permissions: string[] }).permissions).to.not.include('runtime:account:admin');
      expect((byId.get('operator') as { permissions: string[] }).permissions).to.include('runtime:component:write');
    });

    it('creates a custom role, assigns it, and its permissions apply at the next request', async () => {
      const role = await tk.request('POST', '/roles', {
        token: root,
        body: {
          id: 'component-editor',
          description: 'edits components',
          permissions: ['runtime:component:read', 'runtime:component:write'],
        },
      });
      expect(role.status, role.text).to.equal(201);
      expect(role.body).to.include({ id: 'component-editor', built_in: false, tenant_id: 'default' });
      expect(
        (
          await tk.request('POST', '/roles', {
            token: root,
            body: { id: 'viewer', permissions: ['runtime:component:read'] },
          })
        ).status,
      ).to.equal(409);
      const undeclared = await tk.request('POST', '/roles', {
        token: root,
        body: { id: 'bogus', permissions: ['runtime:nothing:write'] },
      });
      expect(undeclared.status).to.equal(400);
      expect(undeclared.body.error.details[0].pointer).to.equal('/permissions/0');

      await createUser(tk, root, { username: 'editor', password: PASSWORD, roles: [] });
      const editor = (await login(tk, { tenant_id: 'default', username: 'editor', password: PASSWORD })).access_token;
      expect(
        (await tk.request('POST', '/components', { token: editor, body: { type: 'passthrough', name: 'before' } }))
          .status,
      ).to.equal(403);
      const assigned = await tk.request('PUT', '/users/editor/roles', {
        token: root,
        body: { roles: ['component-editor'] },
      });
      expect(assigned.status, assigned.text).to.equal(200);
      expect(assigned.body.roles).to.deep.equal(['component-editor']);
      expect(
        (await tk.request('POST', '/components', { token: editor, body: { type: 'passthrough', name: 'after' } }))
          .status,
      ).to.equal(201);

      expect((await tk.request('DELETE', '/roles/component-editor', { token: root })).status).to.equal(204);
      expect(
        (
          await tk.request('POST', '/components', {
            token: editor,
            body: { type: 'passthrough', name: 'after-delete' },
          })
        ).status,
      ).to.equal(403);
      expect((await tk.request('DELETE', '/roles/viewer', { token: root })).status).to.equal(400);
    });
  });
});
