import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, openTask, scriptXml, serviceXml, startInstance } from './fixtures.js';

describe('bpmn: service and script tasks, incidents and replay', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'],
      auth: { mode: 'none' },
      settings: { bpmn: { retries: 1 } },
    });
  });
  after(() => tk?.close());

  it('raises an incident when a service task keeps failing, and retries it on resolve', async () => {
    await deploy(tk, serviceXml('svc-incident', 'stream:later-stream'));
    const started = await startInstance(tk, { process_id: 'svc-incident', variables: { x: 1 } });
    expect(started.state).to.equal('incident');
    expect(started.incidents).to.have.length(1);
    expect(started.incidents[0]).to.include({ activity_id: 'publish', state: 'open' });
    expect(started.incidents[0].message).to.match(/No stream "later-stream"/);
    const listed = await tk.request('GET', `/bpmn/incidents?instance_id=${started.id}`);
    expect(listed.body.items.map((i: any) => i.id)).to.deep.equal([started.incidents[0].id]);
    expect((await tk.request('GET', '/bpmn/instances?state=incident')).body.items.map((i: any) => i.id)).to.include(
      started.id,
    );
    const logs = await tk.request('GET', '/logs?source=bpmn');
    expect(JSON.stringify(logs.body)).to.match(/Incident on instance/);

    expect((await tk.request('POST', '/streams', { body: { id: 'later-stream', name: 'later' } })).status).to.equal(
      201,
    );
    const resolved = await tk.request('POST', `/bpmn/incidents/${started.incidents[0].id}/resolve`, { body: {} });
    expect(resolved.status, resolved.text).to.equal(200);
    expect(resolved.body.state).to.equal('active');
    expect(resolved.body.activities.map((a: any) => a.activity_id)).to.deep.equal(['after']);
    expect(resolved.body.incidents[0].state).to.equal('resolved');
    expect((await tk.request('GET', '/streams/later-stream/messages')).body.items).to.have.length(1);
    expect(
      (await tk.request('POST', `/bpmn/incidents/${started.incidents[0].id}/resolve`, { body: {} })).status,
    ).to.equal(409);
  });

  it('routes a failing service task to its error boundary event instead of an incident', async () => {
    await deploy(tk, serviceXml('svc-caught', 'stream:no-such-stream', true));
    const started = await startInstance(tk, { process_id: 'svc-caught' });
    expect(started.state).to.equal('active');
    expect(started.incidents).to.have.length(0);
    expect(started.activities.map((a: any) => a.activity_id)).to.deep.equal(['handle']);
  });

  it('runs a script task in the sandbox: its result becomes variables', async () => {
    await deploy(
      tk,
      scriptXml('script-ok', 'result = { total: variables.price * variables.qty, seen: typeof require }'),
    );
    const started = await startInstance(tk, { process_id: 'script-ok', variables: { price: 3, qty: 4 } });
    expect(started.state, JSON.stringify(started.incidents)).to.equal('active');
    expect(started.variables).to.deep.equal({ price: 3, qty: 4, total: 12, seen: 'undefined' });
  });

  it('turns a throwing script into an incident, or into its error boundary when it has one', async () => {
    await deploy(tk, scriptXml('script-bad', 'throw new Error("bad input " + variables.n)'));
    const failed = await startInstance(tk, { process_id: 'script-bad', variables: { n: 7 } });
    expect(failed.state).to.equal('incident');
    expect(failed.incidents[0].message).to.match(/bad input 7/);
    await deploy(tk, scriptXml('script-caught', 'throw new Error("nope")', true));
    const caught = await startInstance(tk, { process_id: 'script-caught' });
    expect(caught.state).to.equal('active');
    expect(caught.activities.map((a: any) => a.activity_id)).to.deep.equal(['handle']);
  });

  it('cancels an instance: its tasks are cancelled, and cancelling again is a conflict', async () => {
    await deploy(tk, serviceXml('cancel-me', 'stream:later-stream'));
    const started = await startInstance(tk, { process_id: 'cancel-me' });
    const cancelled = await tk.request('POST', `/bpmn/instances/${started.id}/cancel`, { body: {} });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body.state).to.equal('cancelled');
    expect(cancelled.body.tasks.map((t: any) => t.state)).to.deep.equal(['cancelled']);
    expect(
      (await tk.request('POST', `/bpmn/tasks/${openTask(started, 'after')}/complete`, { body: {} })).status,
    ).to.equal(409);
    expect((await tk.request('POST', `/bpmn/instances/${started.id}/cancel`, { body: {} })).status).to.equal(409);
  });

  it('replays an instance as a new one, from the start or from an activity it waited at, leaving the original unchanged', async () => {
    await deploy(tk, scriptXml('replayed', 'result = { doubled: variables.n * 2 }'));
    const original = await startInstance(tk, { process_id: 'replayed', variables: { n: 5 } });
    const finished = await tk.request('POST', `/bpmn/tasks/${openTask(original, 'after')}/complete`, {
      body: { variables: { note: 'done' } },
    });
    expect(finished.body.state).to.equal('completed');
    const before = (await tk.request('GET', `/bpmn/instances/${original.id}`)).body;

    const fromStart = await tk.request('POST', `/bpmn/instances/${original.id}/replay`, { body: {} });
    expect(fromStart.status, fromStart.text).to.equal(201);
    expect(fromStart.body).to.include({ replay_of: original.id, state: 'active' });
    expect(fromStart.body.id).to.not.equal(original.id);
    expect(fromStart.body.variables).to.deep.equal({ n: 5, doubled: 10 });

    const fromTask = await tk.request('POST', `/bpmn/instances/${original.id}/replay`, {
      body: { from_activity: 'after' },
    });
    expect(fromTask.status, fromTask.text).to.equal(201);
    expect(fromTask.body).to.include({ replay_of: original.id, replay_from: 'after', state: 'active' });
    expect(fromTask.body.variables).to.deep.equal({ n: 5, doubled: 10 });
    expect(fromTask.body.activities.map((a: any) => a.activity_id)).to.deep.equal(['after']);
    const replayDone = await tk.request('POST', `/bpmn/tasks/${openTask(fromTask.body, 'after')}/complete`, {
      body: { variables: { note: 'again' } },
    });
    expect(replayDone.body.state).to.equal('completed');

    expect(
      (await tk.request('POST', `/bpmn/instances/${original.id}/replay`, { body: { from_activity: 'calc' } })).status,
    ).to.equal(400);
    expect(
      (await tk.request('POST', `/bpmn/instances/${original.id}/replay`, { body: { from_activity: 'nowhere' } }))
        .status,
    ).to.equal(400);
    const after = (await tk.request('GET', `/bpmn/instances/${original.id}`)).body;
    expect(after).to.deep.equal(before);
  });
});
