import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, openTask, simpleUserTaskXml, startInstance, wrap } from './fixtures.js';

/** A Camunda 7 user task: assignee from a variable, candidate groups, a due date and a form. */
const XML = wrap(`<process id="review-order" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
  <userTask id="review" name="Review order" camunda:assignee="\${approver}" camunda:candidateGroups="sales, managers"
            camunda:candidateUsers="kim" camunda:dueDate="2030-01-02T03:04:05Z">
    <extensionElements>
      <camunda:formData>
        <camunda:formField id="approved" label="Approve?" type="boolean">
          <camunda:validation><camunda:constraint name="required"/></camunda:validation>
        </camunda:formField>
        <camunda:formField id="amount" label="Amount" type="long" defaultValue="10"/>
        <camunda:formField id="channel" type="enum"><camunda:value id="web" name="Web"/><camunda:value id="shop" name="Shop"/></camunda:formField>
      </camunda:formData>
      <camunda:taskListener event="create" class="com.example.Listener"/>
    </extensionElements>
  </userTask>
  <sequenceFlow id="f2" sourceRef="review" targetRef="check"/>
  <exclusiveGateway id="check" default="f4"/>
  <sequenceFlow id="f3" sourceRef="check" targetRef="yes"><conditionExpression xsi:type="tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${approved &amp;&amp; amount &gt; 5}</conditionExpression></sequenceFlow>
  <sequenceFlow id="f4" sourceRef="check" targetRef="no"/>
  <endEvent id="yes"/>
  <endEvent id="no"/>
</process>`).replace(
  'xmlns:rt="urn:runtime"',
  'xmlns:rt="urn:runtime" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"',
);

describe('bpmn: user tasks as the model assigns them', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('assigns from the model, filters by candidate group, process and business key, claims and exposes the form', async () => {
    const deployed = await deploy(tk, XML);
    expect((deployed as any).warnings.join('\n')).to.match(/camunda:taskListener/);
    const started = await startInstance(tk, {
      process_id: 'review-order',
      business_key: 'po-1',
      variables: { approver: 'lee' },
    });
    const taskId = openTask(started, 'review');
    const task = (await tk.request('GET', `/bpmn/tasks/${taskId}`)).body;
    expect(task).to.include({ assignee: 'lee', process_id: 'review-order', business_key: 'po-1' });
    expect(task.candidate_groups).to.deep.equal(['sales', 'managers']);
    expect(task.candidate_users).to.deep.equal(['kim']);
    expect(task.due_at).to.equal('2030-01-02T03:04:05.000Z');
    expect(task.form).to.deep.equal({
      type: 'object',
      properties: {
        approved: { type: 'boolean', title: 'Approve?' },
        amount: { type: 'integer', title: 'Amount', default: '10' },
        channel: { type: 'string', enum: ['web', 'shop'] },
      },
      required: ['approved'],
    });
    const byGroup = await tk.request(
      'GET',
      '/bpmn/tasks?candidate_group=managers&process_id=review-order&business_key=po-1',
    );
    expect(byGroup.body.items.map((t: any) => t.id)).to.deep.equal([taskId]);
    expect((await tk.request('GET', '/bpmn/tasks?candidate_group=nobody')).body.items).to.have.length(0);
    expect((await tk.request('GET', '/bpmn/tasks?business_key=other')).body.items).to.have.length(0);

    const taken = await tk.request('POST', `/bpmn/tasks/${taskId}/claim`, { body: { assignee: 'kim' } });
    expect(taken.status).to.equal(409);
    expect((await tk.request('POST', `/bpmn/tasks/${taskId}/unclaim`, { body: {} })).body.assignee).to.equal(null);
    const claimed = await tk.request('POST', `/bpmn/tasks/${taskId}/claim`, { body: { assignee: 'kim' } });
    expect(claimed.status, claimed.text).to.equal(200);
    expect(claimed.body.assignee).to.equal('kim');

    // The JUEL condition reads the completion's variables.
    const done = await tk.request('POST', `/bpmn/tasks/${taskId}/complete`, {
      body: { variables: { approved: true, amount: 7 } },
    });
    expect(done.body.state).to.equal('completed');
    const history = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history;
    expect(history.find((h: any) => h.activity_id === 'yes')).to.include({ outcome: 'completed' });
  });

  it("sets an active instance's variables, which its conditions then read", async () => {
    const started = await startInstance(tk, { process_id: 'review-order', variables: { approver: 'lee' } });
    const set = await tk.request('POST', `/bpmn/instances/${started.id}/variables`, {
      body: { variables: { approved: true, amount: 9 } },
    });
    expect(set.status, set.text).to.equal(200);
    expect(set.body.variables).to.include({ approved: true, amount: 9, approver: 'lee' });
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(set.body, 'review')}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
    const history = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history;
    expect(history.find((h: any) => h.activity_id === 'yes')).to.include({ outcome: 'completed' });
  });

  it('migrates a waiting instance to a newer version that still has its waiting element, and refuses one that does not', async () => {
    await deploy(tk, simpleUserTaskXml('migrating'));
    const started = await startInstance(tk, { process_id: 'migrating' });
    // v2 adds a step after the task; v3 renames the task away.
    await deploy(
      tk,
      simpleUserTaskXml('migrating').replace(
        '<sequenceFlow id="f2" sourceRef="task" targetRef="end"/>',
        '<sequenceFlow id="f2" sourceRef="task" targetRef="extra"/><userTask id="extra"/><sequenceFlow id="f3" sourceRef="extra" targetRef="end"/>',
      ),
    );
    await deploy(tk, simpleUserTaskXml('migrating').replace(/"task"/g, '"renamed"'));
    const refused = await tk.request('POST', `/bpmn/instances/${started.id}/migrate`, { body: {} });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.message).to.match(/no "task"/);
    const moved = await tk.request('POST', `/bpmn/instances/${started.id}/migrate`, { body: { version: 2 } });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.version).to.equal(2);
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(moved.body, 'task')}/complete`, { body: {} });
    expect(done.body.state).to.equal('active');
    expect(done.body.activities.map((a: any) => a.activity_id)).to.deep.equal(['extra']);
  });
});
