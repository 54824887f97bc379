import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, fetchJobs, jobXml, startInstance } from './fixtures.js';

/** Real workers against two kernels on one PostgreSQL database: each job is locked and completed by one worker. */
describe('bpmn: job workers across two kernels', function () {
  this.timeout(180_000);
  const schema = `t_bpmnjobs_${randomBytes(5).toString('hex')}`;
  let a: TestKernel;
  let b: TestKernel;
  before(async function () {
    if (!onPostgres) this.skip();
    const overrides = { plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } };
    a = await startKernel(overrides, { schema });
    b = await startKernel(overrides, { schema });
  });
  after(async () => {
    await closeSharingSchema(schema, a, b);
  });

  it('gives each job to exactly one of four concurrent workers', async () => {
    await deploy(a, jobXml('cluster-jobs', 'cluster-charge'));
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await startInstance(i % 2 ? a : b, { process_id: 'cluster-jobs' })).id);
    const locked: string[] = [];
    const completed: string[] = [];
    const worker = async (kernel: TestKernel, name: string) => {
      for (let idle = 0; idle < 3; ) {
        const jobs = await fetchJobs(kernel, { worker_id: name, types: ['cluster-charge'], max_jobs: 3, wait_ms: 300 });
        if (jobs.length === 0) idle++;
        for (const job of jobs) {
          locked.push(job.id);
          const done = await kernel.request('POST', `/bpmn/jobs/${job.id}/complete`, {
            body: { worker_id: name, variables: { by: name } },
          });
          expect(done.status, done.text).to.equal(200);
          completed.push(job.id);
        }
      }
    };
    await Promise.all([worker(a, 'a1'), worker(a, 'a2'), worker(b, 'b1'), worker(b, 'b2')]);
    expect(locked).to.have.length(40);
    expect(new Set(locked).size).to.equal(40);
    expect(new Set(completed).size).to.equal(40);
    const knex = a.kernel.database.knex;
    const states = await knex('bpmn_instances').whereIn('id', ids).select('state', 'variables');
    expect(states.every((s: any) => s.state === 'completed')).to.equal(true);
    const ends = await knex('bpmn_history').whereIn('instance_id', ids).andWhere({ activity_id: 'end' });
    expect(ends).to.have.length(40);
  });

  it('frees the job of a worker killed mid-job once its lock expires; another completes it once', async () => {
    await deploy(a, jobXml('cluster-killed', 'cluster-killed'));
    const started = await startInstance(a, { process_id: 'cluster-killed' });
    // A worker in its own process: it fetches, says which job it holds, then hangs (as a crashed one would).
    const script = `
      const res = await fetch(${JSON.stringify(`${a.url}/bpmn/jobs/fetch-and-lock`)}, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ worker_id: 'doomed', types: ['cluster-killed'], lock_duration_ms: 1500, wait_ms: 5000 }),
      });
      const body = await res.json();
      console.log(JSON.stringify(body.items.map((j) => j.id)));
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const held: string[] = await new Promise((resolve, reject) => {
      child.stdout.once('data', (chunk) => resolve(JSON.parse(String(chunk))));
      child.once('exit', () => reject(new Error('the worker exited before fetching')));
    });
    expect(held).to.have.length(1);
    child.kill('SIGKILL');
    // Locked still: the other kernel's worker gets nothing until the lock expires, then the job.
    expect(await fetchJobs(b, { worker_id: 'survivor', types: ['cluster-killed'] })).to.have.length(0);
    const [job] = await fetchJobs(b, { worker_id: 'survivor', types: ['cluster-killed'], wait_ms: 5000 });
    expect(job.id).to.equal(held[0]);
    const late = await a.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'doomed' } });
    expect(late.status).to.equal(409);
    const done = await b.request('POST', `/bpmn/jobs/${job.id}/complete`, { body: { worker_id: 'survivor' } });
    expect(done.body.state).to.equal('completed');
    const ends = await a.kernel.database.knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' });
    expect(ends).to.have.length(1);
  });
});
