import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import {
  deploy,
  loopXml,
  messageXml,
  openTask,
  signalParallelXml,
  simpleUserTaskXml,
  startInstance,
  subProcessXml,
  userTaskXml,
} from './fixtures.js';

describe('bpmn: elements run and instances move on through the API', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('runs start → user task → exclusive gateway → end, with history and variables', async () => {
    await deploy(tk, userTaskXml());
    const started = await startInstance(tk, {
      process_id: 'approval',
      variables: { amount: 5 },
      business_key: 'order-1',
    });
    expect(started).to.include({ state: 'active', process_id: 'approval', version: 1, business_key: 'order-1' });
    expect(started.activities.map((a: any) => a.activity_id)).to.deep.equal(['approve']);
    const tasks = await tk.request('GET', `/bpmn/tasks?instance_id=${started.id}`);
    expect(tasks.body.items).to.have.length(1);
    expect(tasks.body.items[0]).to.include({ activity_id: 'approve', name: 'Approve order', state: 'open' });
    const done = await tk.request('POST', `/bpmn/tasks/${tasks.body.items[0].id}/complete`, {
      body: { variables: { approved: true } },
    });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.state).to.equal('completed');
    expect(done.body.variables).to.deep.equal({ amount: 5, approved: true });
    const history = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history.map(
      (h: any) => `${h.activity_id}:${h.outcome}`,
    );
    expect(history).to.include.members([
      'start:completed',
      'approve:completed',
      'decide:completed',
      'yes:completed',
      'no:discarded',
    ]);
    const again = await tk.request('POST', `/bpmn/tasks/${tasks.body.items[0].id}/complete`, { body: {} });
    expect(again.status).to.equal(409);
  });

  it('takes the default flow when the condition is false', async () => {
    const started = await startInstance(tk, { process_id: 'approval' });
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(started, 'approve')}/complete`, {
      body: { variables: { approved: false } },
    });
    expect(done.body.state).to.equal('completed');
    expect(
      (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history.map(
        (h: any) => `${h.activity_id}:${h.outcome}`,
      ),
    ).to.include.members(['no:completed', 'yes:discarded']);
  });

  it('correlates messages by name and correlation key, receive tasks included', async () => {
    await deploy(tk, messageXml('shipping'));
    const a = await startInstance(tk, { process_id: 'shipping', variables: { order_id: 'A-1' }, business_key: 'bk-a' });
    const b = await startInstance(tk, { process_id: 'shipping', variables: { order_id: 'B-2' }, business_key: 'bk-b' });
    expect(a.activities).to.deep.include({
      activity_id: 'paid',
      kind: 'message',
      name: 'payment-received',
      correlation_key: 'A-1',
    });
    const none = await tk.request('POST', '/bpmn/messages', {
      body: { name: 'payment-received', correlation_key: 'Z-9' },
    });
    expect(none.status).to.equal(404);
    const paid = await tk.request('POST', '/bpmn/messages', {
      body: { name: 'payment-received', correlation_key: 'B-2', variables: { paid: 10 } },
    });
    expect(paid.status, paid.text).to.equal(200);
    expect(paid.body).to.deep.equal({ correlated: 1, instances: [b.id] });
    const bNow = (await tk.request('GET', `/bpmn/instances/${b.id}`)).body;
    expect(bNow.activities).to.deep.equal([
      { activity_id: 'shipped', kind: 'message', name: 'shipped', correlation_key: 'bk-b' },
    ]);
    expect(bNow.variables.paid).to.equal(10);
    expect((await tk.request('GET', `/bpmn/instances/${a.id}`)).body.activities[0].activity_id).to.equal('paid');
    const shipped = await tk.request('POST', '/bpmn/messages', { body: { name: 'shipped', correlation_key: 'bk-b' } });
    expect(shipped.body.correlated).to.equal(1);
    expect((await tk.request('GET', `/bpmn/instances/${b.id}`)).body.state).to.equal('completed');
  });

  it('joins a parallel gateway after a signal and a user task', async () => {
    await deploy(tk, signalParallelXml('signals'));
    const started = await startInstance(tk, { process_id: 'signals' });
    expect(started.activities.map((a: any) => a.activity_id).sort()).to.deep.equal(['check', 'go']);
    const signalled = await tk.request('POST', '/bpmn/signals', { body: { name: 'go' } });
    expect(signalled.body.instances).to.include(started.id);
    const mid = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body;
    expect(mid.state).to.equal('active');
    expect(mid.activities.map((a: any) => a.activity_id)).to.deep.equal(['check']);
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(mid, 'check')}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
    expect(
      (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history.filter(
        (h: any) => h.activity_id === 'end',
      ),
    ).to.have.length(1);
    expect((await tk.request('POST', '/bpmn/signals', { body: { name: 'nobody-listens' } })).body.correlated).to.equal(
      0,
    );
  });

  it('runs a subprocess with a user task inside', async () => {
    await deploy(tk, subProcessXml('nested'));
    const started = await startInstance(tk, { process_id: 'nested' });
    expect(started.activities.map((a: any) => a.activity_id)).to.deep.equal(['inner']);
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(started, 'inner')}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
    expect(
      (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history.map((h: any) => h.activity_id),
    ).to.include.members(['sub', 'inner', 'subEnd', 'end']);
  });

  it('stops a loop without a wait state with an incident', async () => {
    await deploy(tk, loopXml('loop'));
    const res = await tk.request('POST', '/bpmn/instances', { body: { process_id: 'loop' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.state).to.equal('incident');
    expect(res.body.incidents[0].message).to.match(/loop without a wait state/);
  });

  it('starts one instance for a repeated request_id', async () => {
    await deploy(tk, simpleUserTaskXml('idempotent'));
    const first = await tk.request('POST', '/bpmn/instances', {
      body: { process_id: 'idempotent', request_id: 'start-once-1' },
    });
    const again = await tk.request('POST', '/bpmn/instances', {
      body: { process_id: 'idempotent', request_id: 'start-once-1' },
    });
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    const listed = await tk.request('GET', '/bpmn/instances?process_id=idempotent');
    expect(listed.body.items.map((i: any) => i.id)).to.deep.equal([first.body.id]);
  });

  it('refuses bad input', async () => {
    await deploy(tk, simpleUserTaskXml('plain'));
    expect((await tk.request('POST', '/bpmn/instances', { body: { process_id: 'missing' } })).status).to.equal(404);
    expect(
      (await tk.request('POST', '/bpmn/instances', { body: { process_id: 'plain', version: 9 } })).status,
    ).to.equal(404);
    expect(
      (await tk.request('POST', '/bpmn/instances', { body: { process_id: 'plain', variables: [1] } })).status,
    ).to.equal(400);
    expect(
      (
        await tk.request('POST', '/bpmn/instances', {
          body: { process_id: 'plain', variables: { big: 'x'.repeat(300_000) } },
        })
      ).status,
    ).to.equal(400);
    expect((await tk.request('POST', '/bpmn/tasks/bpt_000000000000000/complete', { body: {} })).status).to.equal(404);
  });
});
