import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, fetchJobs, jobXml, openTask, startInstance } from './fixtures.js';

describe('bpmn: service tasks reach job workers', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('creates a job the worker fetches, locks and completes with variables', async () => {
    await deploy(tk, jobXml('job-happy', 'charge-happy'));
    const started = await startInstance(tk, {
      process_id: 'job-happy',
      variables: { amount: 12 },
      business_key: 'o-1',
    });
    expect(started.state).to.equal('active');
    const wait = started.activities.find((a: any) => a.kind === 'job');
    expect(wait).to.include({ activity_id: 'charge', type: 'charge-happy' });
    const [job, ...more] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-happy'], max_jobs: 5 });
    expect(more).to.have.length(0);
    expect(job).to.include({
      id: wait.job_id,
      type: 'charge-happy',
      worker_id: 'w1',
      business_key: 'o-1',
      process_id: 'job-happy',
    });
    expect(job.variables).to.deep.equal({ amount: 12 });
    // Locked: nobody else gets it, and only its holder may answer.
    expect(await fetchJobs(tk, { worker_id: 'w2', types: ['charge-happy'] })).to.have.length(0);
    const stranger = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'w2' } });
    expect(stranger.status, stranger.text).to.equal(409);
    expect(stranger.body.error.message).to.match(/not locked by worker "w2"/);
    const done = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, {
      body: { worker_id: 'w1', variables: { receipt: 'r-9' } },
    });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.state).to.equal('completed');
    expect(done.body.variables).to.deep.equal({ amount: 12, receipt: 'r-9' });
    const again = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'w1' } });
    expect(again.status).to.equal(409);
    const listed = await tk.request('GET', `/bpmn/jobs?instance_id=${started.id}`);
    expect(listed.body.items.map((j: any) => j.state)).to.deep.equal(['completed']);
    const audit = await tk.request('GET', '/audit?operation=completeBpmnJob');
    expect(
      audit.body.items.filter((a: any) => a.resource_id === job.id && a.outcome !== 'failure').length,
    ).to.be.greaterThan(0);
  });

  it('locks exactly max_jobs of many due jobs, the oldest first, and leaves the rest to other workers', async () => {
    await deploy(tk, jobXml('job-many', 'charge-many'));
    const started = [];
    for (let i = 0; i < 6; i++)
      started.push(await startInstance(tk, { process_id: 'job-many', business_key: `m-${i}` }));
    const one = await fetchJobs(tk, { worker_id: 'w-one', types: ['charge-many'], max_jobs: 1 });
    expect(one).to.have.length(1);
    expect(one[0].business_key).to.equal('m-0');
    const two = await fetchJobs(tk, { worker_id: 'w-two', types: ['charge-many'], max_jobs: 2 });
    expect(two.map((j: { business_key: string }) => j.business_key).sort()).to.deep.equal(['m-1', 'm-2']);
    // What the database holds agrees with what the workers were told: no job locked for nobody.
    const locked = await tk.kernel.database
      .knex('bpmn_jobs')
      .where({ type: 'charge-many', state: 'open' })
      .whereNotNull('worker_id')
      .orderBy('worker_id')
      .pluck('worker_id');
    expect(locked).to.deep.equal(['w-one', 'w-two', 'w-two']);
    expect(await fetchJobs(tk, { worker_id: 'w-three', types: ['charge-many'], max_jobs: 10 })).to.have.length(3);

    // Workers in a loop over instances whose service task loops back to itself: each fetch of
    // one job locks one job, so once every worker answered what it got, no job is left locked.
    await deploy(
      tk,
      jobXml('job-loop', 'charge-loop').replace(
        '<sequenceFlow id="f2" sourceRef="charge" targetRef="end"/>',
        '<sequenceFlow id="f2" sourceRef="charge" targetRef="charge"/>',
      ),
    );
    for (let i = 0; i < 12; i++) await startInstance(tk, { process_id: 'job-loop', business_key: `loop-${i}` });
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let round = 0; round < 8; round++) {
          const [job] = await fetchJobs(tk, { worker_id: `loop-${w}`, types: ['charge-loop'], max_jobs: 1 });
          if (!job) continue;
          const done = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: `loop-${w}` } });
          expect(done.status, done.text).to.equal(200);
        }
      }),
    );
    const stillLocked = await tk.kernel.database
      .knex('bpmn_jobs')
      .where({ type: 'charge-loop', state: 'open' })
      .whereNotNull('worker_id');
    expect(stillLocked).to.deep.equal([]);
  });

  it('retries a failing job after its backoff, then raises an incident that resolving with variables fixes', async () => {
    await deploy(tk, jobXml('job-fail', 'charge-fail'));
    const started = await startInstance(tk, { process_id: 'job-fail', variables: { card: 'bad' } });
    let [job] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-fail'] });
    expect(job.retries).to.equal(3);
    const failed = await tk.request('POST', `/bpmn/jobs/${job.id}/fail`, {
      body: { worker_id: 'w1', message: 'card bad', retry_backoff_ms: 2500 },
    });
    expect(failed.status, failed.text).to.equal(200);
    expect(failed.body).to.include({ retries: 2, worker_id: null, state: 'open' });
    // The backoff: not fetchable at once, fetchable after it (a long poll waits for it).
    expect(await fetchJobs(tk, { worker_id: 'w1', types: ['charge-fail'] })).to.have.length(0);
    [job] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-fail', 'other-type'], wait_ms: 8000 });
    expect(job.retries).to.equal(2);
    const last = await tk.request('POST', `/bpmn/jobs/${job.id}/fail`, {
      body: { worker_id: 'w1', message: 'card still bad', retries: 0 },
    });
    expect(last.body.state).to.equal('failed');
    expect(last.body.instance.state).to.equal('incident');
    const incidents = await tk.request('GET', `/bpmn/incidents?instance_id=${started.id}&state=open`);
    expect(incidents.body.items).to.have.length(1);
    expect(incidents.body.items[0]).to.include({ activity_id: 'charge' });
    expect(incidents.body.items[0].message).to.match(/card still bad/);
    const resolved = await tk.request('POST', `/bpmn/incidents/${incidents.body.items[0].id}/resolve`, {
      body: { variables: { card: 'good' }, retries: 2 },
    });
    expect(resolved.status, resolved.text).to.equal(200);
    expect(resolved.body.state).to.equal('active');
    [job] = await fetchJobs(tk, { worker_id: 'w3', types: ['charge-fail'] });
    expect(job).to.include({ retries: 2, instance_id: started.id });
    expect(job.variables).to.deep.equal({ card: 'good' });
    const done = await tk.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'w3' } });
    expect(done.body.state, JSON.stringify(done.body)).to.equal('completed');
  });

  it('routes a BPMN error to the error boundary event; an uncaught one is an incident', async () => {
    await deploy(tk, jobXml('job-error', 'charge-error'));
    const started = await startInstance(tk, { process_id: 'job-error' });
    const [job] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-error'] });
    const thrown = await tk.request('POST', `/bpmn/jobs/${job.id}/bpmn-error`, {
      body: { worker_id: 'w1', error_code: 'DECLINED', message: 'insufficient funds', variables: { reason: 'funds' } },
    });
    expect(thrown.status, thrown.text).to.equal(200);
    expect(thrown.body.state).to.equal('active');
    const task = openTask(thrown.body, 'handle');
    expect(thrown.body.variables).to.include({ reason: 'funds' });
    const done = await tk.request('POST', `/bpmn/tasks/${task}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
    const history = (await tk.request('GET', `/bpmn/instances/${started.id}`)).body.history;
    expect(history.map((h: any) => h.activity_id)).to.include('declined');
    expect(history.find((h: any) => h.activity_id === 'end')?.outcome ?? 'discarded').to.equal('discarded');
    expect(history.find((h: any) => h.activity_id === 'end2')).to.include({ outcome: 'completed' });

    const other = await startInstance(tk, { process_id: 'job-error' });
    const [otherJob] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-error'] });
    expect(otherJob.instance_id).to.equal(other.id);
    const uncaught = await tk.request('POST', `/bpmn/jobs/${otherJob.id}/bpmn-error`, {
      body: { worker_id: 'w1', error_code: 'NO_SUCH_CODE' },
    });
    expect(uncaught.status, uncaught.text).to.equal(200);
    expect(uncaught.body.state).to.equal('incident');
    expect(uncaught.body.incidents).to.have.length.greaterThan(0);
  });

  it('answers one 200 and one 409 to two completions of one job at the same time: one effect', async () => {
    await deploy(tk, jobXml('job-twice', 'charge-twice'));
    const started = await startInstance(tk, { process_id: 'job-twice', variables: { amount: 3 } });
    const [job] = await fetchJobs(tk, { worker_id: 'w1', types: ['charge-twice'] });
    const answers = await Promise.all(
      ['a', 'b'].map((attempt) =>
        tk.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'w1', variables: { attempt } } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(winner.body.state).to.equal('completed');
    const knex = tk.kernel.database.knex;
    const charged = await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'charge' });
    expect(charged.map((h: any) => h.outcome)).to.deep.equal(['completed']);
    const ended = await knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' });
    expect(ended).to.have.length(1);
    const instance = await tk.request('GET', `/bpmn/instances/${started.id}`);
    expect(instance.body.variables).to.deep.equal({ amount: 3, attempt: winner.body.variables.attempt });
  });

  it('wakes a long poll when a job is created, and extends a lock', async () => {
    await deploy(tk, jobXml('job-poll', 'charge-poll'));
    const began = Date.now();
    const polling = fetchJobs(tk, { worker_id: 'w1', types: ['charge-poll'], wait_ms: 10_000, lock_duration_ms: 2000 });
    await new Promise((r) => setTimeout(r, 300));
    await startInstance(tk, { process_id: 'job-poll' });
    const [job] = await polling;
    expect(job.type).to.equal('charge-poll');
    expect(Date.now() - began).to.be.lessThan(5000);
    const extended = await tk.request('POST', `/bpmn/jobs/${job.id}/extend-lock`, {
      body: { worker_id: 'w1', lock_duration_ms: 60_000 },
    });
    expect(extended.status, extended.text).to.equal(200);
    expect(new Date(extended.body.lock_expires_at).getTime()).to.be.greaterThan(Date.now() + 30_000);
    const bad = await tk.request('POST', '/bpmn/jobs/fetch-and-lock', { body: { worker_id: 'w1', types: [] } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation_error');
  });
});
