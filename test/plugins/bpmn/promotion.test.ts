import { expect } from 'chai';
import { createTenant, loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { simpleUserTaskXml, userTaskXml } from './fixtures.js';

/**
 * BPMN definitions join the promotion bundle through the BPMN plugin's contribution to
 * `migration.resources`: every version of a process, oldest first, so the target can start
 * instances of each version the source had.
 */
describe('bpmn: definitions are promoted, every version', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'bpmn', 'migration'] });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'staging');
    await createTenant(tk, admin, 'prod');
  });
  after(() => tk?.close());

  it('carries every version of a process, and the target starts instances of each', async () => {
    const xmls = [userTaskXml('approval'), simpleUserTaskXml('approval')];
    for (const xml of xmls) {
      const deployed = await tk.request('POST', '/bpmn/definitions?tenant_id=staging', {
        token: admin,
        raw: xml,
        contentType: 'application/octet-stream',
      });
      expect(deployed.status, deployed.text).to.equal(201);
    }
    const bundle = await tk.request('POST', '/migration/exports', {
      token: admin,
      body: { tenant_id: 'staging', include: ['bpmn_definitions'] },
    });
    expect(bundle.status, bundle.text).to.equal(200);
    expect(bundle.body.resources.bpmn_definitions).to.have.length(2);
    const plan = await tk.request('POST', '/migration/plans', {
      token: admin,
      body: { tenant_id: 'staging', bundle: bundle.body, target_tenant_id: 'prod' },
    });
    expect(plan.status, plan.text).to.equal(201);
    expect(plan.body.diff.create).to.have.length(2);
    const applied = await tk.request('POST', `/migration/plans/${plan.body.id}/apply`, {
      token: admin,
      body: { tenant_id: 'staging', request_id: 'bpmn-1' },
    });
    expect(applied.status, applied.text).to.equal(200);

    const listed = await tk.request('GET', '/bpmn/definitions?tenant_id=prod', { token: admin });
    expect(listed.status, listed.text).to.equal(200);
    const versions = (listed.body.items as any[]).filter((d) => d.process_id === 'approval').map((d) => d.version);
    expect(versions.sort()).to.deep.equal([1, 2]);
    for (const [index, version] of [1, 2].entries()) {
      const key = (listed.body.items as any[]).find((d) => d.version === version).key;
      const xml = await tk.request('GET', `/bpmn/definitions/${key}/xml?tenant_id=prod`, { token: admin });
      expect(xml.text).to.equal(xmls[index]);
      const started = await tk.request('POST', '/bpmn/instances', {
        token: admin,
        body: { tenant_id: 'prod', process_id: 'approval', version },
      });
      expect(started.status, started.text).to.equal(201);
    }
    // Promoting the same bundle again changes nothing: the versions are the same by their XML.
    const again = await tk.request('POST', '/migration/plans', {
      token: admin,
      body: { tenant_id: 'staging', bundle: bundle.body, target_tenant_id: 'prod' },
    });
    expect(again.body.diff).to.deep.equal({ create: [], update: [], delete: [] });
  });
});
