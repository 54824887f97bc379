import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, openTask, simpleUserTaskXml, startInstance, timerXml } from './fixtures.js';
import { until } from '../../support/poll.js';

/** Two kernels on one PostgreSQL database: each instance advances once, each timer fires once. */
describe('bpmn: two kernels on one database', function () {
  this.timeout(180_000);
  const schema = `t_bpmn2_${randomBytes(5).toString('hex')}`;
  let a: TestKernel;
  let b: TestKernel;
  before(async function () {
    if (!onPostgres) this.skip();
    const overrides = {
      plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'],
      auth: { mode: 'none' },
      settings: { bpmn: { timer_interval_ms: 100 } },
    };
    a = await startKernel(overrides, { schema });
    b = await startKernel(overrides, { schema });
  });
  after(async () => {
    await closeSharingSchema(schema, a, b);
  });

  it('fires each due timer once', async () => {
    await deploy(a, timerXml('cluster-timer', 'PT1S'));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await startInstance(i % 2 ? a : b, { process_id: 'cluster-timer' })).id);
    const knex = a.kernel.database.knex;
    await until(
      async () => Number((await knex('bpmn_tasks').whereIn('instance_id', ids).count({ n: '*' }))[0]!.n) === 12,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const tasks = await knex('bpmn_tasks').whereIn('instance_id', ids).select('instance_id', 'activity_id');
    expect(tasks).to.have.length(12);
    expect(new Set(tasks.map((t: any) => t.instance_id)).size).to.equal(12);
    const fired = await knex('bpmn_history')
      .whereIn('instance_id', ids)
      .andWhere({ activity_id: 'wait' })
      .select('instance_id', 'outcome');
    expect(fired).to.have.length(12);
    expect(fired.every((f: any) => f.outcome === 'completed')).to.equal(true);
    expect(Number((await knex('bpmn_timers').whereIn('instance_id', ids).count({ n: '*' }))[0]!.n)).to.equal(0);
  });

  it('completes a task once when both kernels are asked at the same time', async () => {
    await deploy(a, simpleUserTaskXml('cluster-task'));
    for (let i = 0; i < 5; i++) {
      const started = await startInstance(a, { process_id: 'cluster-task' });
      const task = openTask(started, 'task');
      const results = await Promise.all(
        [a, b].map((k) =>
          k.request('POST', `/bpmn/tasks/${task}/complete`, { body: { variables: { by: k === a ? 'a' : 'b' } } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const ends = await a.kernel.database.knex('bpmn_history').where({ instance_id: started.id, activity_id: 'end' });
      expect(ends).to.have.length(1);
      const now = (await b.request('GET', `/bpmn/instances/${started.id}`)).body;
      expect(now.state).to.equal('completed');
    }
  });
});
