import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import {
  boundaryTimerXml,
  deploy,
  messageXml,
  openTask,
  serviceXml,
  simpleUserTaskXml,
  startInstance,
  timerXml,
} from './fixtures.js';
import { until } from '../../support/poll.js';

const PLUGINS = ['system', 'audit', 'logs', 'streams', 'bpmn'];

/**
 * Instances survive their kernel: each case waits, stops the kernel, boots a new one on the
 * same database and continues there (PGlite in a data directory, or a PostgreSQL schema).
 */
describe('bpmn: instances resume on a new kernel after a restart', function () {
  this.timeout(180_000);
  const schema = `t_bpmn_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bpmn-restart-'));
  let tk: TestKernel | undefined;

  const boot = async (): Promise<TestKernel> => {
    tk = await startKernel(
      {
        plugins: PLUGINS,
        auth: { mode: 'none' },
        settings: { bpmn: { timer_interval_ms: 100 } },
        ...(onPostgres ? {} : { database: { data_dir: dataDir } }),
      },
      onPostgres ? { schema } : {},
    );
    return tk;
  };
  const restart = async (pauseMs = 0): Promise<TestKernel> => {
    await tk?.close();
    tk = undefined;
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    return boot();
  };
  const instance = async (id: string) => (await tk!.request('GET', `/bpmn/instances/${id}`)).body;

  before(async () => {
    await boot();
  });
  after(async () => {
    if (onPostgres && tk)
      await tk.kernel.database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
    await tk?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes a user task on the next kernel', async () => {
    await deploy(tk!, simpleUserTaskXml('restart-task'));
    const started = await startInstance(tk!, { process_id: 'restart-task', variables: { n: 1 } });
    await restart();
    const done = await tk!.request('POST', `/bpmn/tasks/${openTask(started, 'task')}/complete`, {
      body: { variables: { m: 2 } },
    });
    expect(done.status, done.text).to.equal(200);
    expect(done.body).to.include({ state: 'completed' });
    expect(done.body.variables).to.deep.equal({ n: 1, m: 2 });
  });

  it('fires a timer that came due while no kernel ran', async () => {
    await deploy(tk!, timerXml('restart-timer', 'PT1S'));
    const started = await startInstance(tk!, { process_id: 'restart-timer' });
    expect(started.activities).to.have.length(1);
    expect(started.activities[0]).to.include({ activity_id: 'wait', kind: 'timer' });
    await tk!.close();
    tk = undefined;
    await new Promise((r) => setTimeout(r, 1500));
    await boot();
    await until(async () => (await instance(started.id)).activities?.[0]?.activity_id === 'after', 20_000);
    const now = await instance(started.id);
    expect(now.history.filter((h: any) => h.activity_id === 'wait')).to.have.length(1);
    expect(now.history.find((h: any) => h.activity_id === 'wait').outcome).to.equal('completed');
  });

  it('interrupts a user task with a boundary timer after a restart', async () => {
    await deploy(tk!, boundaryTimerXml('restart-boundary', 'PT1S'));
    const started = await startInstance(tk!, { process_id: 'restart-boundary' });
    const review = openTask(started, 'review');
    await restart(1200);
    await until(async () => (await instance(started.id)).tasks?.some((t: any) => t.activity_id === 'escalate'), 20_000);
    const now = await instance(started.id);
    expect(now.tasks.find((t: any) => t.id === review).state).to.equal('cancelled');
    const late = await tk!.request('POST', `/bpmn/tasks/${review}/complete`, { body: {} });
    expect(late.status).to.equal(409);
    const done = await tk!.request('POST', `/bpmn/tasks/${openTask(now, 'escalate')}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
  });

  it('correlates a message on the next kernel', async () => {
    await deploy(tk!, messageXml('restart-message'));
    const started = await startInstance(tk!, {
      process_id: 'restart-message',
      variables: { order_id: 'R-1' },
      business_key: 'rk',
    });
    await restart();
    expect(
      (await tk!.request('POST', '/bpmn/messages', { body: { name: 'payment-received', correlation_key: 'R-1' } })).body
        .correlated,
    ).to.equal(1);
    await restart();
    expect(
      (await tk!.request('POST', '/bpmn/messages', { body: { name: 'shipped', correlation_key: 'rk' } })).body
        .correlated,
    ).to.equal(1);
    expect((await instance(started.id)).state).to.equal('completed');
  });

  it('publishes a service task to a stream and continues after a restart', async () => {
    expect((await tk!.request('POST', '/streams', { body: { id: 'restart-orders', name: 'orders' } })).status).to.equal(
      201,
    );
    await deploy(tk!, serviceXml('restart-service', 'stream:restart-orders'));
    const started = await startInstance(tk!, {
      process_id: 'restart-service',
      variables: { item: 'book' },
      business_key: 'o-7',
    });
    const messages = (await tk!.request('GET', '/streams/restart-orders/messages')).body.items;
    expect(messages).to.have.length(1);
    expect(messages[0]).to.include({ key: 'o-7' });
    expect(messages[0].value).to.deep.equal({ item: 'book' });
    expect(messages[0].headers).to.include({ 'x-bpmn-instance': started.id, 'x-bpmn-activity': 'publish' });
    await restart();
    const done = await tk!.request('POST', `/bpmn/tasks/${openTask(started, 'after')}/complete`, { body: {} });
    expect(done.body.state).to.equal('completed');
    expect((await tk!.request('GET', '/streams/restart-orders/messages')).body.items).to.have.length(1);
  });
});
