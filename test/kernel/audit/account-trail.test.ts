import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, createTenant, createUser, login, loginAdmin } from '../../support/identity.js';
import { untilSealed } from '../../support/sealed.js';

/**
 * An unauthenticated caller cannot grow any tenant's hash chain, nor create one by naming a
 * tenant: its refused calls go to the account-level trail, at a bounded rate, where account
 * admins read them (GET /audit/account).
 */
describe('the account-level audit trail (calls nobody authenticated)', function () {
  this.timeout(60_000);
  let k: TestKernel;
  let account: string;
  const db = () => k.kernel.database.knex;

  before(async () => {
    k = await startKernel({ account_trail: { per_second: 4, burst: 3 } });
    account = await loginAdmin(k);
    await createTenant(k, account, 'beta');
  });
  after(() => k.close());

  it("records an anonymous write that names a tenant in the account trail, never in that tenant's chain", async () => {
    const before = await db()('audit_records').where({ tenant_id: 'beta' }).count<{ count: string }[]>('* as count');
    const res = await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'x' },
      headers: { 'x-service-tenant': 'beta', 'x-request-id': 'anon-beta' },
    });
    expect(res.status).to.equal(401);
    const [row] = await db()('audit_records').where({ request_id: 'anon-beta' });
    expect(row).to.include({ tenant_id: '_account', status: 401, outcome: 'refused', subject_id: null });
    expect(row.detail).to.include({ named_tenant: 'beta' });
    const after = await db()('audit_records').where({ tenant_id: 'beta' }).count<{ count: string }[]>('* as count');
    expect(after[0]?.count).to.equal(before[0]?.count);
  });

  it('creates no trail for a tenant that does not exist', async () => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    const res = await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'x', tenant_id: 'ghost' },
      headers: { 'x-service-tenant': 'ghost' },
    });
    expect(res.status).to.equal(401);
    expect(await db()('audit_records').where({ tenant_id: 'ghost' })).to.deep.equal([]);
    expect(await db()('audit_heads').where({ tenant_id: 'ghost' })).to.deep.equal([]);
  });

  it("puts a failed login in the account trail and a successful one in the tenant's", async () => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await createUser(k, account, {
      tenantId: 'beta',
      username: 'bob',
      password: 'bob-password-123456',
      roles: ['viewer'],
    });
    const wrong = await k.request('POST', '/auth/login', {
      body: { tenant_id: 'beta', username: 'bob', password: 'wrong-password-1' },
      headers: { 'x-request-id': 'login-wrong' },
    });
    expect(wrong.status).to.equal(401);
    const right = await k.request('POST', '/auth/login', {
      body: { tenant_id: 'beta', username: 'bob', password: 'bob-password-123456' },
      headers: { 'x-request-id': 'login-right' },
    });
    expect(right.status).to.equal(200);
    const [failed] = await db()('audit_records').where({ request_id: 'login-wrong' });
    expect(failed).to.include({ tenant_id: '_account', outcome: 'refused' });
    expect(failed.detail).to.include({ named_tenant: 'beta' });
    const [succeeded] = await db()('audit_records').where({ request_id: 'login-right' });
    expect(succeeded).to.include({ tenant_id: 'beta', outcome: 'success' });
  });

  it('writes at a bounded rate, counts what it drops, and says so in the next record', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const ids = Array.from({ length: 8 }, (_, i) => `flood-${i}`);
    for (const id of ids)
      await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'x' },
        headers: { 'x-request-id': id },
      });
    const written = await db()('audit_records').whereIn('request_id', ids).orderBy('at');
    expect(written.length).to.be.at.least(3).and.below(8);
    const metrics = await k.request('GET', '/metrics');
    const dropped = /audit_unauthenticated_dropped_total (\d+)/.exec(metrics.text);
    expect(Number(dropped?.[1])).to.be.greaterThan(0);
    // A token comes back after a quarter second at 4 per second; the record that takes it
    // carries the count of those dropped before it, so every dropped call is accounted for.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'x' },
      headers: { 'x-request-id': 'after-flood' },
    });
    const carried = await db()('audit_records').whereIn('request_id', [...ids, 'after-flood']);
    const counted = carried.reduce(
      (sum: number, r: { detail: { dropped_before?: number } }) => sum + (r.detail.dropped_before ?? 0),
      0,
    );
    expect(counted).to.equal(ids.length - written.length);
  });

  it('is read by account admins at GET /audit/account and verified at /audit/account/verify; tenant admins get 403', async () => {
    const list = await k.request('GET', '/audit/account?limit=1000', { token: account });
    expect(list.status).to.equal(200);
    expect(list.body.items.map((r: { request_id: string }) => r.request_id)).to.include.members([
      'anon-beta',
      'login-wrong',
    ]);
    for (const item of list.body.items) expect(item.tenant_id).to.equal('_account');
    const verify = await untilSealed(() => k.request('GET', '/audit/account/verify', { token: account }));
    expect(verify.status).to.equal(200);
    expect(verify.body).to.include({ tenant_id: '_account', valid: true, unsealed: 0 });
    expect(verify.body.records).to.be.greaterThan(3);
    await createUser(k, account, { username: 'tenant-admin', password: 'tenant-admin-password-1', roles: ['admin'] });
    const admin = (
      await login(k, { ...bootstrapCredentials(), username: 'tenant-admin', password: 'tenant-admin-password-1' })
    ).access_token;
    expect((await k.request('GET', '/audit/account', { token: admin })).status).to.equal(403);
    // The tenant's own trail shows none of the anonymous calls.
    const own = await k.request('GET', '/audit?limit=1000', { token: admin });
    expect(own.body.items.map((r: { request_id: string }) => r.request_id)).to.not.include('anon-beta');
  });
});
