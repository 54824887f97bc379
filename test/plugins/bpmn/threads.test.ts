import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { EnginePool } from '../../../plugins/bpmn/main-engine-pool.js';
import { deploy, loopXml, openTask, simpleUserTaskXml, startInstance, wrap } from './fixtures.js';

/** A user task, then a loop without a wait state: completing the task keeps the engine busy until max_steps stops it. */
const taskThenLoopXml = (processId: string): string =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f0" sourceRef="start" targetRef="task"/>
  <userTask id="task"/>
  <sequenceFlow id="f1" sourceRef="task" targetRef="a"/>
  <task id="a"/>
  <sequenceFlow id="f2" sourceRef="a" targetRef="b"/>
  <exclusiveGateway id="b"/>
  <sequenceFlow id="f3" sourceRef="b" targetRef="a"/>
</process>`);

/** Resolves once the pool's thread `index` has a request in flight. */
async function busy(pool: EnginePool, index: number): Promise<void> {
  while (pool.pending(index) === 0) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Definitions without service or script tasks run their engine in a worker thread: the main
 * thread (HTTP and the database) only writes what the thread computed. The thread holds nothing
 * the database does not, so one that dies costs a rerun from the saved state, never an instance.
 */
describe('bpmn: engines in worker threads', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let pool: EnginePool;
  before(async () => {
    const earlier = new Set(EnginePool.open);
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'bpmn'],
      auth: { mode: 'none' },
      // Enough steps that an advance outlasts a request to another route by far, few enough to be quick.
      settings: { bpmn: { engine_threads: 1, max_steps: 400 } },
    });
    pool = [...EnginePool.open].find((p) => !earlier.has(p))!;
    expect(pool, 'the kernel has an engine pool').to.not.equal(undefined);
    await deploy(tk, loopXml('threads-loop'));
    await deploy(tk, simpleUserTaskXml('threads-simple'));
    await deploy(tk, taskThenLoopXml('threads-task-loop'));
  });
  after(() => tk?.close());

  it('answers other requests while an engine runs a long advance in its thread', async () => {
    const heavy = tk.request('POST', '/bpmn/instances', { body: { process_id: 'threads-loop' } });
    await busy(pool, 0);
    // Sent after the heavy advance started, to a route that needs no database (the embedded one
    // has a single connection, which the heavy advance's transaction holds): with the engine on
    // the main thread (engine_threads 0) it answers only after the engine stopped.
    const order: string[] = [];
    const light = tk.request('GET', '/live').then((res) => (order.push('light'), res));
    const done = heavy.then((res) => (order.push('heavy'), res));
    const [lightRes, heavyRes] = await Promise.all([light, done]);
    expect(lightRes.status).to.equal(200);
    expect(heavyRes.status, heavyRes.text).to.equal(201);
    expect(heavyRes.body.state).to.equal('incident');
    expect(order).to.deep.equal(['light', 'heavy']);
  });

  it('reruns an advance from the saved state when its thread dies in the middle, and replaces the thread', async () => {
    const started = await startInstance(tk, { process_id: 'threads-task-loop' });
    const task = openTask(started, 'task');
    const before = pool.worker(0).threadId;
    const completing = tk.request('POST', `/bpmn/tasks/${task}/complete`, { body: { variables: { by: 'x' } } });
    await busy(pool, 0);
    await pool.worker(0).terminate();
    const res = await completing;
    expect(res.status, res.text).to.equal(200);
    expect(res.body.state).to.equal('incident');
    expect(pool.worker(0).threadId).to.not.equal(before);
    const knex = tk.kernel.database.knex;
    const row = await knex('bpmn_instances').where({ id: started.id }).first();
    expect(row).to.include({ state: 'incident', revision: 2 });
    // Advanced once: one incident, and the task as the failed advance leaves it (its previous state stands).
    expect(await knex('bpmn_incidents').where({ instance_id: started.id })).to.have.length(1);
    expect(await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'task' })).to.have.length(1);
  });

  it('continues an instance whose kept engine died with its thread', async () => {
    const started = await startInstance(tk, { process_id: 'threads-simple' });
    await pool.worker(0).terminate();
    const done = await tk.request('POST', `/bpmn/tasks/${openTask(started, 'task')}/complete`, {
      body: { variables: { ok: true } },
    });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.state).to.equal('completed');
    expect(done.body.variables).to.deep.equal({ ok: true });
    const row = await tk.kernel.database.knex('bpmn_instances').where({ id: started.id }).first();
    expect(row).to.include({ state: 'completed', revision: 2 });
  });

  it('runs every engine on the main thread with engine_threads 0', async () => {
    const earlier = new Set(EnginePool.open);
    const other = await startKernel({
      plugins: ['system', 'audit', 'logs', 'bpmn'],
      auth: { mode: 'none' },
      settings: { bpmn: { engine_threads: 0 } },
    });
    try {
      expect([...EnginePool.open].filter((p) => !earlier.has(p))).to.deep.equal([]);
      await deploy(other, simpleUserTaskXml('threads-main'));
      const started = await startInstance(other, { process_id: 'threads-main' });
      const done = await other.request('POST', `/bpmn/tasks/${openTask(started, 'task')}/complete`, { body: {} });
      expect(done.body.state).to.equal('completed');
    } finally {
      await other.close();
    }
  });
});
