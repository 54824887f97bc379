import { expect } from 'chai';
import { createTenant, loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * Alert rules join the promotion bundle through the alerts plugin's contribution to
 * `migration.resources`: exported with the rest, created in the target by apply, updated there
 * as a new revision, and shown by the target's own API as if made there.
 */
describe('alerts: rules are promoted with the rest of a tenant', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  const rule = {
    id: 'failed-components',
    name: 'A component failed',
    signal: 'component_failed',
    op: '>',
    threshold: 0,
    for_seconds: 30,
    severity: 'critical',
    labels: { team: 'ops' },
    annotations: { summary: 'a component failed' },
    notify: [{ webhook_url: 'https://alerts.example.test/hook' }],
  };

  async function promote(requestId: string): Promise<any> {
    const bundle = await tk.request('POST', '/migration/exports', {
      token: admin,
      body: { tenant_id: 'staging', include: ['alert_rules'] },
    });
    expect(bundle.status, bundle.text).to.equal(200);
    const plan = await tk.request('POST', '/migration/plans', {
      token: admin,
      body: { tenant_id: 'staging', bundle: bundle.body, target_tenant_id: 'prod' },
    });
    expect(plan.status, plan.text).to.equal(201);
    const applied = await tk.request('POST', `/migration/plans/${plan.body.id}/apply`, {
      token: admin,
      body: { tenant_id: 'staging', request_id: requestId },
    });
    expect(applied.status, applied.text).to.equal(200);
    return { bundle: bundle.body, plan: plan.body, applied: applied.body };
  }

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'components', 'alerts', 'migration'] });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'staging');
    await createTenant(tk, admin, 'prod');
  });
  after(() => tk?.close());

  it('carries a rule into the target, then its change as a new revision', async () => {
    const created = await tk.request('POST', '/alerts/rules', {
      token: admin,
      body: { tenant_id: 'staging', ...rule },
    });
    expect(created.status, created.text).to.equal(201);

    const first = await promote('rules-1');
    expect(first.bundle.resources.alert_rules.map((r: any) => r.id)).to.deep.equal([rule.id]);
    expect(first.plan.diff.create).to.deep.include({ kind: 'alert_rules', id: rule.id });
    const promoted = await tk.request('GET', `/alerts/rules/${rule.id}?tenant_id=prod`, { token: admin });
    expect(promoted.status, promoted.text).to.equal(200);
    const { id: _id, ...fields } = rule;
    expect(promoted.body).to.deep.include({ ...fields, revision: 1, tenant_id: 'prod' });

    const changed = await tk.request('PUT', `/alerts/rules/${rule.id}`, {
      token: admin,
      body: { tenant_id: 'staging', ...fields, threshold: 2 },
    });
    expect(changed.status, changed.text).to.equal(200);
    const second = await promote('rules-2');
    expect(second.plan.diff.update).to.deep.include({ kind: 'alert_rules', id: rule.id });
    const updated = await tk.request('GET', `/alerts/rules/${rule.id}?tenant_id=prod`, { token: admin });
    expect(updated.body).to.include({ threshold: 2, revision: 2 });
  });
});
