import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, openTask, startInstance, wrap } from './fixtures.js';

/** A customer and a supplier: two pools, one deployment, messages between them along message flows. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="urn:test">
  <message id="orderMsg" name="order"/>
  <message id="deliveryMsg" name="delivery"/>
  <collaboration id="c">
    <participant id="customerPool" processRef="customer"/>
    <participant id="supplierPool" processRef="supplier"/>
    <participant id="bankPool"/>
    <messageFlow id="m1" sourceRef="sendOrder" targetRef="received"/>
    <messageFlow id="m2" sourceRef="sendDelivery" targetRef="delivered"/>
    <messageFlow id="m3" sourceRef="sendOrder" targetRef="bankPool"/>
  </collaboration>
  <process id="customer" isExecutable="true">
    <startEvent id="cs"/>
    <sequenceFlow id="c1" sourceRef="cs" targetRef="sendOrder"/>
    <intermediateThrowEvent id="sendOrder"><messageEventDefinition messageRef="orderMsg"/></intermediateThrowEvent>
    <sequenceFlow id="c2" sourceRef="sendOrder" targetRef="delivered"/>
    <receiveTask id="delivered" messageRef="deliveryMsg" camunda:asyncBefore="true"/>
    <sequenceFlow id="c3" sourceRef="delivered" targetRef="ce"/>
    <endEvent id="ce"/>
  </process>
  <process id="supplier" isExecutable="true">
    <startEvent id="received"><messageEventDefinition messageRef="orderMsg"/></startEvent>
    <sequenceFlow id="s1" sourceRef="received" targetRef="ship"/>
    <userTask id="ship" camunda:candidateGroups="warehouse, shipping" camunda:assignee="ann"/>
    <sequenceFlow id="s2" sourceRef="ship" targetRef="sendDelivery"/>
    <intermediateThrowEvent id="sendDelivery"><messageEventDefinition messageRef="deliveryMsg"/></intermediateThrowEvent>
    <sequenceFlow id="s3" sourceRef="sendDelivery" targetRef="se"/>
    <endEvent id="se"/>
  </process>
  <process id="archive"/>
</definitions>`;

describe('bpmn: a collaboration deploys its pools as definitions whose messages correlate', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it("deploys each process, starts the supplier by the customer's message and answers the customer by the supplier's", async () => {
    const res = await tk.request('POST', '/bpmn/definitions', { raw: XML, contentType: 'application/octet-stream' });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.process_id).to.equal('customer');
    const byProcess = Object.fromEntries(res.body.definitions.map((d: any) => [d.process_id, d]));
    expect(Object.keys(byProcess).sort()).to.deep.equal(['archive', 'customer', 'supplier']);
    expect(byProcess.archive.executable).to.equal(false);
    expect(byProcess.customer.deployment).to.equal(byProcess.supplier.deployment);
    expect(res.body.warnings.join('\n')).to.match(/camunda:asyncBefore/);
    const refused = await tk.request('POST', '/bpmn/instances', { body: { process_id: 'archive' } });
    expect(refused.status).to.equal(409);

    const customer = await startInstance(tk, {
      process_id: 'customer',
      business_key: 'order-7',
      variables: { item: 'tea' },
    });
    expect(customer.activities.map((a: any) => a.activity_id)).to.deep.equal(['delivered']);
    const suppliers = (await tk.request('GET', '/bpmn/instances?process_id=supplier&business_key=order-7')).body.items;
    expect(suppliers).to.have.length(1);
    expect(suppliers[0].variables).to.include({ item: 'tea' });
    const supplier = (await tk.request('GET', `/bpmn/instances/${suppliers[0].id}`)).body;
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(supplier, 'ship')}/complete`, {
      body: { variables: { tracking: 'T-1' } },
    });
    expect(done.body.state).to.equal('completed');
    const after = (await tk.request('GET', `/bpmn/instances/${customer.id}`)).body;
    expect(after.state).to.equal('completed');
    expect(after.variables).to.include({ tracking: 'T-1' });
  });

  it('runs a call activity as a child instance of another definition (latest or pinned version), variables in and out', async () => {
    const child = (version: string) =>
      wrap(`<process id="kyc-check" isExecutable="true">
  <startEvent id="s"/>
  <sequenceFlow id="f1" sourceRef="s" targetRef="check"/>
  <userTask id="check" name="Check ${version}"/>
  <sequenceFlow id="f2" sourceRef="check" targetRef="e"/>
  <endEvent id="e"/>
</process>`);
    const parent = (binding: string) =>
      wrap(`<process id="onboard${binding ? '-pinned' : ''}" isExecutable="true">
  <startEvent id="s"/>
  <sequenceFlow id="f1" sourceRef="s" targetRef="call"/>
  <callActivity id="call" calledElement="kyc-check" ${binding}/>
  <sequenceFlow id="f2" sourceRef="call" targetRef="e"/>
  <endEvent id="e"/>
</process>`).replace(
        'xmlns:rt="urn:runtime"',
        'xmlns:rt="urn:runtime" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"',
      );
    const missing = await startInstance(tk, { process_id: (await deploy(tk, parent(''))).process_id });
    expect(missing.state).to.equal('incident');
    expect(missing.incidents[0].message).to.match(/kyc-check/);
    await deploy(tk, child('one'));
    await deploy(tk, child('two'));
    await deploy(tk, parent('camunda:calledElementBinding="version" camunda:calledElementVersion="1"'));
    for (const [processId, name] of [
      ['onboard', 'Check two'],
      ['onboard-pinned', 'Check one'],
    ]) {
      const started = await startInstance(tk, {
        process_id: processId,
        business_key: `b-${processId}`,
        variables: { who: 'ann' },
      });
      expect(started.activities).to.deep.equal([{ activity_id: 'call', kind: 'call', process_id: 'kyc-check' }]);
      const children = (await tk.request('GET', `/bpmn/instances?process_id=kyc-check&business_key=b-${processId}`))
        .body.items;
      expect(children).to.have.length(1);
      expect(children[0]).to.include({ parent_id: started.id });
      expect(children[0].variables).to.deep.equal({ who: 'ann' });
      const childFull = (await tk.request('GET', `/bpmn/instances/${children[0].id}`)).body;
      expect(childFull.tasks[0].name).to.equal(name);
      const done = await tk.request('POST', `/bpmn/tasks/${openTask(childFull, 'check')}/complete`, {
        body: { variables: { verified: true } },
      });
      expect(done.body.state).to.equal('completed');
      const after = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body;
      expect(after.state).to.equal('completed');
      expect(after.variables).to.deep.equal({ who: 'ann', verified: true });
    }
  });

  it('cancels a parent with the children its call activities started (their tasks closed); a child alone is refused', async () => {
    await deploy(
      tk,
      wrap(`<process id="nested-leaf" isExecutable="true">
  <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="wait"/>
  <userTask id="wait"/><sequenceFlow id="f2" sourceRef="wait" targetRef="e"/><endEvent id="e"/>
</process>`),
    );
    for (const [id, called] of [
      ['nested-middle', 'nested-leaf'],
      ['nested-root', 'nested-middle'],
    ])
      await deploy(
        tk,
        wrap(`<process id="${id}" isExecutable="true">
  <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="call"/>
  <callActivity id="call" calledElement="${called}"/><sequenceFlow id="f2" sourceRef="call" targetRef="e"/><endEvent id="e"/>
</process>`),
      );
    const root = await startInstance(tk, { process_id: 'nested-root', business_key: 'nested' });
    const byProcess = async (processId: string) =>
      (await tk.request('GET', `/bpmn/instances?process_id=${processId}&business_key=nested`)).body.items[0];
    const middle = await byProcess('nested-middle');
    const leaf = await byProcess('nested-leaf');
    expect([middle.parent_id, leaf.parent_id]).to.deep.equal([root.id, middle.id]);
    const openTasks = async () =>
      (await tk.request('GET', '/bpmn/tasks?process_id=nested-leaf')).body.items.filter(
        (t: { state: string; instance_id: string }) => t.state === 'open' && t.instance_id === leaf.id,
      );
    expect(await openTasks()).to.have.length(1);
    const refused = await tk.request('POST', `/bpmn/instances/${leaf.id}/cancel`);
    expect(refused.status, refused.text).to.equal(409);
    expect(refused.body.error.message).to.include(middle.id);
    expect((await byProcess('nested-leaf')).state).to.equal('active');

    const cancelled = await tk.request('POST', `/bpmn/instances/${root.id}/cancel`);
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.state).to.equal('cancelled');
    expect((await byProcess('nested-middle')).state).to.equal('cancelled');
    expect((await byProcess('nested-leaf')).state).to.equal('cancelled');
    expect(await openTasks()).to.deep.equal([]);
  });
});
