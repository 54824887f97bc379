import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { scriptXml, simpleUserTaskXml, userTaskXml } from './fixtures.js';

describe('bpmn: definitions are checked, versioned per process and idempotent', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());
  const post = (xml: string) =>
    tk.request('POST', '/bpmn/definitions', { raw: xml, contentType: 'application/octet-stream' });

  it('versions each process and answers the existing version for the same XML', async () => {
    const first = await post(simpleUserTaskXml('versioned'));
    expect(first.status, first.text).to.equal(201);
    expect(first.body).to.include({ process_id: 'versioned', version: 1 });
    const same = await post(simpleUserTaskXml('versioned'));
    expect(same.body).to.include({ key: first.body.key, version: 1 });
    const changed = await post(simpleUserTaskXml('versioned').replace('name="Do it"', 'name="Do it now"'));
    expect(changed.body).to.include({ process_id: 'versioned', version: 2 });
    expect(changed.body.key).to.not.equal(first.body.key);
    const list = await tk.request('GET', '/bpmn/definitions?process_id=versioned');
    expect(list.body.items.map((d: any) => d.version).sort()).to.deep.equal([1, 2]);
    const xml = await tk.request('GET', `/bpmn/definitions/${first.body.key}/xml`);
    expect(xml.status).to.equal(200);
    expect(xml.headers.get('content-type')).to.match(/xml/);
    expect(xml.text).to.equal(simpleUserTaskXml('versioned'));
    expect((await tk.request('GET', `/bpmn/definitions/${first.body.key}`)).body).to.include({
      process_id: 'versioned',
      version: 1,
    });
    expect((await tk.request('GET', '/bpmn/definitions/bpd_doesnotexist0')).status).to.equal(404);
    const latest = await tk.request('POST', '/bpmn/instances', { body: { process_id: 'versioned' } });
    expect(latest.body.version).to.equal(2);
    const pinned = await tk.request('POST', '/bpmn/instances', { body: { process_id: 'versioned', version: 1 } });
    expect(pinned.body.version).to.equal(1);
    const byKey = await tk.request('POST', '/bpmn/instances', { body: { key: first.body.key } });
    expect(byKey.body).to.include({ version: 1, definition_key: first.body.key });
  });

  it('refuses malformed XML naming the line', async () => {
    const res = await post(userTaskXml('broken').replace('<endEvent id="no"/>', '<endEvent id="no">'));
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_error');
    expect(res.body.error.message).to.match(/line \d+/);
    expect((await post('not xml at all')).status).to.equal(400);
    expect((await post('')).status).to.equal(400);
  });

  it('refuses an unsupported element naming it and its line', async () => {
    const xml = simpleUserTaskXml('unsupported').replace(
      '<userTask id="task" name="Do it"/>',
      '<userTask id="task" name="Do it"/>\n  <complexGateway id="cg"/>',
    );
    const res = await post(xml);
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.match(/bpmn:ComplexGateway/);
    const line = xml.split('\n').findIndex((l) => l.includes('complexGateway')) + 1;
    expect(res.body.error.message).to.include(`line ${line}`);
    const unknown = await post(
      simpleUserTaskXml('unknown').replace(
        '<userTask id="task" name="Do it"/>',
        '<userTask id="task" name="Do it"/>\n  <bogusTask id="b"/>',
      ),
    );
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.message).to.match(/bogusTask/);
    expect(unknown.body.error.message).to.match(/line \d+/);
  });

  it('compiles JavaScript script tasks at deploy: a syntax error is a 400 naming the element, its XML line and the script line', async () => {
    const xml = scriptXml('broken-script', 'const total = variables.price *;\nresult = { total };');
    const res = await post(xml);
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error.code).to.equal('validation_error');
    const line = xml.split('\n').findIndex((l) => l.includes('<scriptTask id="calc"')) + 1;
    expect(res.body.error.message).to.include('Script task "calc" does not compile: script line 1');
    expect(res.body.error.message).to.include(`(line ${line})`);
    expect(res.body.error.details[0].message).to.match(/^calc: /);
    // Nothing was stored; a script that compiles (even one that throws when run) deploys.
    expect((await tk.request('GET', '/bpmn/definitions?process_id=broken-script')).body.items).to.deep.equal([]);
    const fixed = await post(scriptXml('broken-script', 'if (!variables.price) throw new Error("no price");'));
    expect(fixed.status, fixed.text).to.equal(201);
  });

  it('keeps tenants apart and audits each deploy once', async () => {
    const res = await post(simpleUserTaskXml('audited'));
    const audit = await tk.request('GET', '/audit?operation=deployBpmnDefinition');
    expect(audit.status, audit.text).to.equal(200);
    expect(audit.body.items.filter((a: any) => a.resource_id === res.body.key)).to.have.length(1);
  });
});
