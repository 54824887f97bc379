import { expect } from 'chai';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { createTenant, createUser, login, loginAdmin } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'last admin password 001';

function expectConflict(res: HttpResult): void {
  expect(res.status, res.text).to.equal(409);
  expect(res.body.error.code).to.equal('conflict');
  expect(res.body.error.message).to.include('without an active account admin');
}

/**
 * The bootstrap tenant keeps at least one active account admin: a user, not disabled, holding
 * a role that grants runtime:account:admin. Whatever would remove the last one is 409.
 */
describe('the last active account admin of the bootstrap tenant', function () {
  // Each test signs in several users: on a loaded two-core machine that passed 30 s when scrypt ran at N = 2^17.
  this.timeout(120_000);
  let tk: TestKernel;
  let root: string;

  const user = (id: string) =>
    tk.kernel.database.knex('identity_users').where({ tenant_id: 'default', id }).first('roles', 'disabled');
  const sessionOf = async (username: string, roles: string[], tenantId = 'default'): Promise<string> => {
    await createUser(tk, root, { username, password: PASSWORD, roles, tenantId });
    return (await login(tk, { tenant_id: tenantId, username, password: PASSWORD })).access_token;
  };

  before(async function () {
    this.timeout(120_000);
    tk = await startKernel({ plugins: PLUGINS });
    root = await loginAdmin(tk);
  });
  after(() => tk?.close());

  it('cannot be disabled, deleted or stripped of account-admin (nothing changes)', async () => {
    expectConflict(await tk.request('PATCH', '/users/admin', { token: root, body: { disabled: true } }));
    expectConflict(await tk.request('DELETE', '/users/admin', { token: root }));
    expectConflict(await tk.request('PUT', '/users/admin/roles', { token: root, body: { roles: ['admin'] } }));
    expect(await user('admin')).to.deep.equal({ roles: ['admin', 'account-admin'], disabled: false });
    // The refusals rolled back: the admin's session still works.
    expect((await tk.request('GET', '/tenants', { token: root })).status).to.equal(200);
    // A dry run answers the same.
    expectConflict(await tk.request('PATCH', '/users/admin?dry_run=true', { token: root, body: { disabled: true } }));
  });

  it('other changes of that admin, and changes of users who are not it, pass', async () => {
    expect(
      (await tk.request('PATCH', '/users/admin', { token: root, body: { display_name: 'The admin' } })).status,
    ).to.equal(200);
    await createUser(tk, root, { username: 'plain-admin', password: PASSWORD, roles: ['admin'] });
    expect(
      (await tk.request('PATCH', '/users/plain-admin', { token: root, body: { disabled: true } })).status,
    ).to.equal(200);
    expect((await tk.request('DELETE', '/users/plain-admin', { token: root })).status).to.equal(204);
  });

  it('may go once another active account admin exists; then that one is the last', async () => {
    const second = await sessionOf('second-admin', ['account-admin']);
    const disabled = await tk.request('PATCH', '/users/admin', { token: second, body: { disabled: true } });
    expect(disabled.status, disabled.text).to.equal(200);
    expectConflict(await tk.request('PATCH', '/users/second-admin', { token: second, body: { disabled: true } }));
    expectConflict(await tk.request('DELETE', '/users/second-admin', { token: second }));
    // A disabled account admin does not count: re-enabling one makes the other removable.
    expect((await tk.request('PATCH', '/users/admin', { token: second, body: { disabled: false } })).status).to.equal(
      200,
    );
    root = await loginAdmin(tk);
    expect((await tk.request('DELETE', '/users/second-admin', { token: root })).status).to.equal(204);
  });

  it('counts custom roles that grant runtime:account:admin, and refuses deleting the last such role', async () => {
    const everything = [...tk.kernel.catalog.permissions.keys()];
    expect(
      (await tk.request('POST', '/roles', { token: root, body: { id: 'super', permissions: everything } })).status,
    ).to.equal(201);
    const superUser = await sessionOf('super-user', ['super']);
    // With super-user holding account scope through "super", the bootstrap admin may step down.
    expect((await tk.request('PUT', '/users/admin/roles', { token: superUser, body: { roles: [] } })).status).to.equal(
      200,
    );
    expectConflict(await tk.request('DELETE', '/roles/super', { token: superUser }));
    expect(await tk.kernel.database.knex('identity_roles').where({ tenant_id: 'default', id: 'super' })).to.have.length(
      1,
    );
    expect(await user('super-user')).to.deep.include({ roles: ['super'] });
    expect(
      (await tk.request('PUT', '/users/admin/roles', { token: superUser, body: { roles: ['admin', 'account-admin'] } }))
        .status,
    ).to.equal(200);
  });

  it('of two admins disabling each other at once, one stays active', async () => {
    const one = await sessionOf('race-one', ['super']);
    const two = await sessionOf('race-two', ['super']);
    // Only the two of them are active account admins during the race.
    expect((await tk.request('DELETE', '/users/super-user', { token: one })).status).to.equal(204);
    expect((await tk.request('PATCH', '/users/admin', { token: one, body: { disabled: true } })).status).to.equal(200);
    const [a, b] = await Promise.all([
      tk.request('PATCH', '/users/race-two', { token: one, body: { disabled: true } }),
      tk.request('PATCH', '/users/race-one', { token: two, body: { disabled: true } }),
    ]);
    // The one that ran second lost either to the guard (409) or to its own credential, disabled
    // by the first (401): either way exactly one change committed.
    const statuses = [a.status, b.status].sort();
    expect(statuses[0], `${a.text} ${b.text}`).to.equal(200);
    expect([401, 409], `${a.text} ${b.text}`).to.include(statuses[1]);
    const active = await tk.kernel.database
      .knex('identity_users')
      .where({ tenant_id: 'default', disabled: false })
      .whereIn('id', ['race-one', 'race-two'])
      .pluck('id');
    expect(active).to.have.length(1);
    const survivor = active[0] === 'race-one' ? one : two;
    expect((await tk.request('PATCH', '/users/admin', { token: survivor, body: { disabled: false } })).status).to.equal(
      200,
    );
    root = await loginAdmin(tk);
  });

  it('does not guard other tenants', async () => {
    await createTenant(tk, root, 'elsewhere');
    const only = await sessionOf('only-admin', ['admin'], 'elsewhere');
    expect((await tk.request('PATCH', '/users/only-admin', { token: only, body: { disabled: true } })).status).to.equal(
      200,
    );
  });
});
