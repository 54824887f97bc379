import { expect } from 'chai';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('migration: who may promote where', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let accountAdmin: string;
  let stagingAdmin: string;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'components', 'migration'] });
    accountAdmin = await loginAdmin(tk);
    await createTenant(tk, accountAdmin, 'staging');
    await createTenant(tk, accountAdmin, 'prod');
    stagingAdmin = await mintToken(tk, accountAdmin, ['admin'], { tenantId: 'staging' });
    expect(
      (
        await tk.request('POST', '/components', {
          token: stagingAdmin,
          body: { type: 'passthrough', id: 'c1', name: 'c1' },
        })
      ).status,
    ).to.equal(201);
  });
  after(() => tk?.close());

  it('lets a tenant admin plan within its own tenant only, and an account admin between tenants', async () => {
    const exported = await tk.request('POST', '/migration/exports', { token: stagingAdmin, body: {} });
    expect(exported.status, exported.text).to.equal(200);
    const bundle = exported.body;
    const intoProd = await tk.request('POST', '/migration/plans', {
      token: stagingAdmin,
      body: { bundle, target_tenant_id: 'prod' },
    });
    expect(intoProd.status, intoProd.text).to.equal(403);
    const withinStaging = await tk.request('POST', '/migration/plans', {
      token: stagingAdmin,
      body: { bundle, target_tenant_id: 'staging' },
    });
    expect(withinStaging.status, withinStaging.text).to.equal(201);
    expect(withinStaging.body.diff).to.deep.equal({ create: [], update: [], delete: [] });
    const byAccountAdmin = await tk.request('POST', '/migration/plans', {
      token: accountAdmin,
      body: { tenant_id: 'staging', bundle, target_tenant_id: 'prod' },
    });
    expect(byAccountAdmin.status, byAccountAdmin.text).to.equal(201);
    const nowhere = await tk.request('POST', '/migration/plans', {
      token: accountAdmin,
      body: { tenant_id: 'staging', bundle, target_tenant_id: 'no-such-tenant' },
    });
    expect(nowhere.status, nowhere.text).to.equal(404);
    const applied = await tk.request('POST', `/migration/plans/${byAccountAdmin.body.id}/apply`, {
      token: accountAdmin,
      body: { tenant_id: 'staging', request_id: 'to-prod-1' },
    });
    expect(applied.status, applied.text).to.equal(200);
    expect((await tk.request('GET', '/components/c1?tenant_id=prod', { token: accountAdmin })).status).to.equal(200);
    // The apply is in both trails: the source's (where the plan lives) and the target's (what changed).
    for (const [trail, other] of [
      ['staging', undefined],
      ['prod', 'staging'],
    ] as const) {
      const records = await tk.request('GET', `/audit?tenant_id=${trail}&operation=applyPlan`, { token: accountAdmin });
      expect(records.status, records.text).to.equal(200);
      const applies = (records.body.items as any[]).filter((r) => r.operation === 'applyPlan' && r.status === 200);
      expect(applies, `${trail}: ${records.text}`).to.have.length(1);
      expect(applies[0].resource_id).to.equal(byAccountAdmin.body.id);
      if (other) expect(applies[0].detail).to.include({ source_tenant_id: other, target_tenant_id: 'prod' });
    }
  });
});
