import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, fetchJobs, startInstance, wrap } from './fixtures.js';

const zeebe = (xml: string) =>
  xml.replace('xmlns:rt="urn:runtime"', 'xmlns:rt="urn:runtime" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"');

/** A service task run by a job worker that loops back to itself: every completion makes the next job. */
const loopingJobXml = (processId: string, type: string) =>
  zeebe(
    wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="join"/>
  <exclusiveGateway id="join"/>
  <sequenceFlow id="f2" sourceRef="join" targetRef="work"/>
  <serviceTask id="work"><extensionElements><zeebe:taskDefinition type="${type}"/></extensionElements></serviceTask>
  <sequenceFlow id="f3" sourceRef="work" targetRef="join"/>
</process>`),
  );

/** Two jobs of one instance at once (a parallel fork), joined before the end. */
const parallelJobsXml = (processId: string, type: string) =>
  zeebe(
    wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="fork"/>
  <parallelGateway id="fork"/>
  <sequenceFlow id="f2" sourceRef="fork" targetRef="a"/>
  <sequenceFlow id="f3" sourceRef="fork" targetRef="b"/>
  <serviceTask id="a"><extensionElements><zeebe:taskDefinition type="${type}"/></extensionElements></serviceTask>
  <serviceTask id="b"><extensionElements><zeebe:taskDefinition type="${type}"/></extensionElements></serviceTask>
  <sequenceFlow id="f4" sourceRef="a" targetRef="join"/>
  <sequenceFlow id="f5" sourceRef="b" targetRef="join"/>
  <parallelGateway id="join"/>
  <sequenceFlow id="f6" sourceRef="join" targetRef="end"/>
  <endEvent id="end"/>
</process>`),
  );

/**
 * A job completed on the kernel that keeps its instance's engine is one statement — the job
 * closed while its worker holds it, the instance saved at the revision the engine ran from, the
 * advance's writes and the audit record — with no transaction around it. When a guard finds
 * nothing, nothing is written and the call runs again in a transaction, which answers as always.
 */
describe('bpmn: a job completed on the kept engine', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let statements: string[] = [];
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'bpmn'], auth: { mode: 'none' } });
    tk.kernel.database.knex.on('query', (q: { sql: string }) => statements.push(q.sql));
  });
  after(() => tk?.close());
  const knex = () => tk.kernel.database.knex;

  /** Completes as `worker`, with the statements the call sent (the audit sealer's left out). */
  async function complete(jobId: string, worker: string, variables: Record<string, unknown> = {}) {
    statements = [];
    const res = await tk.request('POST', `/bpmn/jobs/${jobId}/complete`, { body: { worker_id: worker, variables } });
    const sent = statements.filter((sql) => !/audit_seals|audit_heads|audit_clock|pg_snapshot_xmin/.test(sql));
    return { res, sent, begins: sent.filter((sql) => /^\s*BEGIN;/i.test(sql)).length };
  }
  const job = async (id: string) => (await knex()('bpmn_jobs').where({ id }).first()) as Record<string, unknown>;
  const revision = async (id: string) =>
    Number(((await knex()('bpmn_instances').where({ id }).first()) as { revision: number }).revision);
  const records = async (jobId: string) =>
    (
      (await knex()('audit_records')
        .where({ operation: 'completeBpmnJob', resource_id: jobId })
        .orderBy('at')) as Array<{ status: number }>
    ).map((r) => r.status);

  it('writes the completion, the next job and the audit record in one statement, without a transaction', async () => {
    await deploy(tk, loopingJobXml('kept-loop', 'kept-work'));
    const started = await startInstance(tk, { process_id: 'kept-loop', variables: { n: 1 } });
    const [fetched] = await fetchJobs(tk, { worker_id: 'w1', types: ['kept-work'] });
    const { res, sent, begins } = await complete(fetched.id, 'w1', { done: 1 });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.variables).to.deep.equal({ n: 1, done: 1 });
    const next = res.body.activities.find((a: { kind: string }) => a.kind === 'job');
    expect(next.job_id).to.not.equal(fetched.id);
    expect(begins).to.equal(0);
    const writes = sent.filter((sql) => /update bpmn_jobs|insert into bpmn_jobs|INSERT INTO audit_records/i.test(sql));
    expect(writes).to.have.length(1);
    expect(writes[0])
      .to.match(/update bpmn_jobs set state = 'completed'/)
      .and.to.match(/update bpmn_instances/)
      .and.to.match(/insert into bpmn_jobs/)
      .and.to.match(/INSERT INTO audit_records/);
    expect(await job(fetched.id)).to.include({ state: 'completed', worker_id: null });
    expect(await job(next.job_id)).to.include({ state: 'open', worker_id: null });
    expect(await revision(started.id)).to.equal(2);
    expect(await records(fetched.id)).to.deep.equal([200]);
    // The engine is kept again at the new revision: the next answer takes the same path.
    const [again] = await fetchJobs(tk, { worker_id: 'w1', types: ['kept-work'] });
    expect(again.id).to.equal(next.job_id);
    expect(again.variables).to.deep.equal({ n: 1, done: 1 });
    const second = await complete(again.id, 'w1');
    expect(second.res.status, second.res.text).to.equal(200);
    expect(second.begins).to.equal(0);
    expect(await revision(started.id)).to.equal(3);
  });

  it('refuses an answer whose lock expired (409): nothing written but its audit record; the next holder completes', async () => {
    await deploy(tk, loopingJobXml('kept-late', 'kept-late'));
    const started = await startInstance(tk, { process_id: 'kept-late' });
    const [fetched] = await fetchJobs(tk, { worker_id: 'late', types: ['kept-late'] });
    expect(fetched.instance_id).to.equal(started.id);
    // The lock runs out (by the database's clock) before the worker answers.
    await knex().raw("update bpmn_jobs set lock_expires_at = now() - interval '1 second' where id = ?", [fetched.id]);
    const late = await complete(fetched.id, 'late', { stale: true });
    expect(late.res.status, late.res.text).to.equal(409);
    expect(late.res.body.error.message).to.match(/not locked by worker "late"/);
    // The combined statement wrote nothing; the transaction it fell back to answered the refusal.
    expect(late.begins).to.equal(1);
    expect(await job(fetched.id)).to.include({ state: 'open' });
    expect(await revision(started.id)).to.equal(1);
    expect(await records(fetched.id)).to.deep.equal([409]);
    const [taken] = await fetchJobs(tk, { worker_id: 'next', types: ['kept-late'] });
    expect(taken.id).to.equal(fetched.id);
    const done = await complete(fetched.id, 'next');
    expect(done.res.status, done.res.text).to.equal(200);
    expect(done.res.body.variables).to.not.have.property('stale');
    expect(await revision(started.id)).to.equal(2);
    expect(await records(fetched.id)).to.deep.equal([409, 200]);
  });

  it('falls back to a transaction when the instance moved on since its engine was kept, and completes from the saved state', async () => {
    await deploy(tk, loopingJobXml('kept-moved', 'kept-moved'));
    const started = await startInstance(tk, { process_id: 'kept-moved', variables: { n: 7 } });
    const [fetched] = await fetchJobs(tk, { worker_id: 'w2', types: ['kept-moved'] });
    expect(fetched.instance_id).to.equal(started.id);
    // As another kernel's advance would: the row's revision is no longer the kept engine's.
    await knex()('bpmn_instances').where({ id: started.id }).increment('revision', 1);
    const { res, sent, begins } = await complete(fetched.id, 'w2', { moved: true });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.variables).to.deep.equal({ n: 7, moved: true });
    // First the guarded statement (it wrote nothing), then the transaction that did the work.
    expect(begins).to.equal(1);
    expect(sent.filter((sql) => /INSERT INTO audit_records/.test(sql))).to.have.length(2);
    expect(await revision(started.id)).to.equal(3);
    expect(await job(fetched.id)).to.include({ state: 'completed' });
    const open = await knex()('bpmn_jobs').where({ instance_id: started.id, state: 'open' });
    expect(open).to.have.length(1);
    expect(await records(fetched.id)).to.deep.equal([200]);
  });

  it('completes two jobs of one instance at the same time: both answered, the instance ends once', async () => {
    await deploy(tk, parallelJobsXml('kept-parallel', 'kept-par'));
    for (let round = 0; round < 3; round++) {
      const started = await startInstance(tk, { process_id: 'kept-parallel' });
      const jobs = await fetchJobs(tk, { worker_id: 'p', types: ['kept-par'], max_jobs: 2 });
      expect(jobs.map((j: { instance_id: string }) => j.instance_id)).to.deep.equal([started.id, started.id]);
      const answers = await Promise.all(
        jobs.map((j: { id: string }, i: number) =>
          tk.request('POST', `/bpmn/jobs/${j.id}/complete`, { body: { worker_id: 'p', variables: { [`v${i}`]: i } } }),
        ),
      );
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200]);
      const instance = await tk.request('GET', `/bpmn/instances/${started.id}`);
      expect(instance.body.state).to.equal('completed');
      expect(instance.body.variables).to.deep.equal({ v0: 0, v1: 1 });
      const ended = await knex()('bpmn_history').where({ instance_id: started.id, activity_id: 'end' });
      expect(ended).to.have.length(1);
      const states = await knex()('bpmn_jobs').where({ instance_id: started.id }).pluck('state');
      expect(states).to.deep.equal(['completed', 'completed']);
    }
  });
});
