import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, openTask, simpleUserTaskXml, startInstance, wrap } from './fixtures.js';

/** Two user tasks on parallel branches, joined before the end: completing one leaves the other open. */
const twoTasksXml = (processId: string): string =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="fork"/>
  <parallelGateway id="fork"/>
  <sequenceFlow id="f2" sourceRef="fork" targetRef="first"/>
  <sequenceFlow id="f3" sourceRef="fork" targetRef="second"/>
  <userTask id="first"/>
  <userTask id="second"/>
  <sequenceFlow id="f4" sourceRef="first" targetRef="join"/>
  <sequenceFlow id="f5" sourceRef="second" targetRef="join"/>
  <parallelGateway id="join"/>
  <sequenceFlow id="f6" sourceRef="join" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

/**
 * A kernel completes a task with the engine it kept from the instance's last advance, in one
 * write guarded by the instance's revision and the task being open (no lock, no read first).
 * These tests check the guard: whatever moved the instance on meanwhile, the kept engine writes
 * nothing and the completion answers as if it had locked first.
 */
describe('bpmn: completing a task with a kept engine', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'bpmn'], auth: { mode: 'none' } });
    await deploy(tk, simpleUserTaskXml('kept-simple'));
    await deploy(tk, twoTasksXml('kept-two'));
  });
  after(() => tk?.close());

  /** The statements a call sends to the database. */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const listener = (query: { sql: string }) => seen.push(query.sql);
    tk.kernel.database.knex.on('query', listener);
    try {
      await run();
    } finally {
      tk.kernel.database.knex.off('query', listener);
    }
    return seen;
  }

  it('writes once, without locking, when the kernel kept the engine', async () => {
    const started = await startInstance(tk, { process_id: 'kept-simple' });
    const sql = await statementsOf(async () => {
      const done = await tk.request('POST', `/bpmn/tasks/${openTask(started, 'task')}/complete`, {
        body: { variables: { ok: true } },
      });
      expect(done.status, done.text).to.equal(200);
      expect(done.body.state).to.equal('completed');
    });
    expect(sql.filter((s) => /bpmn_/.test(s) && /for update/i.test(s))).to.deep.equal([]);
    expect(sql.filter((s) => /bpmn_(instances|tasks|history|snapshots)/.test(s))).to.have.length(1);
    const task = await tk.kernel.database.knex('bpmn_tasks').where({ instance_id: started.id }).first();
    expect(task.state).to.equal('completed');
    expect(task.variables).to.deep.equal({ ok: true });
    const row = await tk.kernel.database.knex('bpmn_instances').where({ id: started.id }).first();
    expect(row).to.include({ state: 'completed', revision: 2 });
  });

  it('answers one 200 and one 409 to two completions of one task at the same time', async () => {
    for (let i = 0; i < 5; i++) {
      const started = await startInstance(tk, { process_id: 'kept-simple' });
      const task = openTask(started, 'task');
      const results = await Promise.all(
        ['x', 'y'].map((by) => tk.request('POST', `/bpmn/tasks/${task}/complete`, { body: { variables: { by } } })),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      const knex = tk.kernel.database.knex;
      expect(await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' })).to.have.length(1);
      expect((await knex('bpmn_tasks').where({ id: task }).first()).variables).to.deep.equal(
        winner.body.variables.by === 'x' ? { by: 'x' } : { by: 'y' },
      );
    }
  });

  it('writes nothing and answers 409 when the task was completed elsewhere after the engine was kept', async () => {
    const started = await startInstance(tk, { process_id: 'kept-simple' });
    const task = openTask(started, 'task');
    const knex = tk.kernel.database.knex;
    // What another kernel's completion leaves: the task closed and the row one revision on.
    await knex('bpmn_tasks').where({ id: task }).update({ state: 'completed', completed_at: new Date() });
    await knex('bpmn_instances').where({ id: started.id }).increment('revision', 1);
    const late = await tk.request('POST', `/bpmn/tasks/${task}/complete`, { body: {} });
    expect(late.status, late.text).to.equal(409);
    expect(await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' })).to.have.length(0);
    expect(await knex('bpmn_snapshots').where({ instance_id: started.id })).to.have.length(1);
    expect(await knex('bpmn_instances').where({ id: started.id }).first()).to.include({ state: 'active', revision: 2 });
  });

  it('continues from the saved state when the instance moved on elsewhere with the task still open', async () => {
    const started = await startInstance(tk, { process_id: 'kept-two' });
    const first = openTask(started, 'first');
    const second = openTask(started, 'second');
    const knex = tk.kernel.database.knex;
    // Only the revision moves: the kept engine is stale though its task is still open; the guard must refuse it.
    await knex('bpmn_instances').where({ id: started.id }).increment('revision', 1);
    const done = await tk.request('POST', `/bpmn/tasks/${first}/complete`, { body: { variables: { a: 1 } } });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.state).to.equal('active');
    expect((await knex('bpmn_instances').where({ id: started.id }).first()).revision).to.equal(3);
    expect(done.body.tasks.map((t: any) => t.id)).to.deep.equal([second]);
    const last = await tk.request('POST', `/bpmn/tasks/${second}/complete`, { body: { variables: { b: 2 } } });
    expect(last.status, last.text).to.equal(200);
    expect(last.body.state).to.equal('completed');
    expect((await knex('bpmn_instances').where({ id: started.id }).first()).revision).to.equal(4);
    expect(last.body.variables).to.deep.equal({ a: 1, b: 2 });
    expect(await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' })).to.have.length(1);
    expect(
      (await knex('bpmn_tasks').where({ instance_id: started.id }).select('state')).map((t: any) => t.state),
    ).to.deep.equal(['completed', 'completed']);
  });

  describe('with a second kernel on the same database', () => {
    const schema = `t_bpmnk_${randomBytes(5).toString('hex')}`;
    let a: TestKernel;
    let b: TestKernel;
    before(async function () {
      if (!onPostgres) this.skip();
      const overrides = { plugins: ['system', 'audit', 'logs', 'bpmn'], auth: { mode: 'none' } };
      a = await startKernel(overrides, { schema });
      b = await startKernel(overrides, { schema });
    });
    after(async () => {
      await closeSharingSchema(schema, a, b);
    });

    it("does not let a stale kept engine undo the other kernel's completion", async () => {
      await deploy(a, twoTasksXml('kept-cluster'));
      const started = await startInstance(a, { process_id: 'kept-cluster' });
      // b completes the first task; a still keeps the engine from before it.
      const byB = await b.request('POST', `/bpmn/tasks/${openTask(started, 'first')}/complete`, {
        body: { variables: { a: 1 } },
      });
      expect(byB.status, byB.text).to.equal(200);
      const byA = await a.request('POST', `/bpmn/tasks/${openTask(started, 'second')}/complete`, {
        body: { variables: { b: 2 } },
      });
      expect(byA.status, byA.text).to.equal(200);
      expect(byA.body.state).to.equal('completed');
      expect((await a.kernel.database.knex('bpmn_instances').where({ id: started.id }).first()).revision).to.equal(3);
      expect(byA.body.variables).to.deep.equal({ a: 1, b: 2 });
      const history = await a.kernel.database
        .knex('bpmn_history')
        .where({ instance_id: started.id })
        .select('activity_id', 'outcome');
      expect(history.filter((h: any) => h.activity_id === 'end')).to.have.length(1);
      expect(
        history.filter((h: any) => h.activity_id === 'first' || h.activity_id === 'second').map((h: any) => h.outcome),
      ).to.deep.equal(['completed', 'completed']);
    });
  });
});
