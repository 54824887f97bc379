import { expect } from 'chai';
import { contribute, coreServices, createPlugin } from '../../../kernel/plugin/api.js';
import { componentTypes, type ComponentType, type RuntimeMessage } from '../../../plugins/components/contract.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';

/** What the `capture` sink's deliver() received, in order (a sink component as a pager would be). */
const captured: Array<{ componentId: string | undefined; message: RuntimeMessage; secret: unknown }> = [];

const captureSink: ComponentType = {
  name: 'capture',
  kind: 'sink',
  config_schema: {
    type: 'object',
    additionalProperties: false,
    properties: { token: { type: 'string', 'x-secret': true } },
  },
  create: (config, where) => ({
    deliver: async (message) => void captured.push({ componentId: where.componentId, message, secret: config.token }),
  }),
};

const capturePlugin = createPlugin({
  id: 'capture-sink',
  manifest: { id: 'capture-sink', version: '1.0.0', summary: 'a sink type that records what it delivers', routes: [] },
  deps: { clock: coreServices.clock },
  setup: () => ({ handlers: {}, contributions: [contribute(componentTypes, captureSink)] }),
});

describe("alerts: the workflows plugin's error_rate and the BPMN plugin's incidents signals, notified through a sink component", function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel(
      {
        plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'bpmn', 'alerts'],
        auth: { mode: 'none' },
        log: { level: 'error' },
        settings: { alerts: { evaluation_interval_ms: 200 } },
      },
      { plugins: [capturePlugin] },
    );
  });
  after(() => tk?.close());

  it('lists error_rate, refuses notify targets that are not sink components of the tenant with 400', async () => {
    const signals = await tk.request('GET', '/alert-signals');
    expect(signals.body.items.find((s: any) => s.name === 'error_rate')).to.deep.include({
      selector: { workflow: 'Only this workflow.' },
    });
    expect(
      (await tk.request('POST', '/components', { body: { type: 'passthrough', id: 'not-a-sink', name: 'p' } })).status,
    ).to.equal(201);
    expect(
      (
        await tk.request('POST', '/components', {
          body: { tenant_id: 'elsewhere', type: 'capture', id: 'theirs', name: 't' },
        })
      ).status,
    ).to.equal(201);
    for (const component of ['missing', 'not-a-sink', 'theirs']) {
      const res = await tk.request('POST', '/alerts/rules', {
        body: { name: `bad ${component}`, signal: 'error_rate', op: '>', threshold: 0.1, notify: [{ component }] },
      });
      expect(res.status, component).to.equal(400);
      expect(res.body.error.details[0].pointer).to.equal('/notify/0/component');
    }
    expect(
      (
        await tk.request('POST', '/alerts/rules', {
          body: {
            name: 'both',
            signal: 'error_rate',
            op: '>',
            threshold: 0.1,
            notify: [{ component: 'x', webhook_url: 'https://example.com' }],
          },
        })
      ).status,
    ).to.equal(400);
    expect(
      (
        await tk.request('POST', '/alerts/rules', {
          body: { name: 'bad selector', signal: 'error_rate', selector: { stream: 'x' }, op: '>', threshold: 0.1 },
        })
      ).status,
    ).to.equal(400);
  });

  it("fires when a workflow's error rate (from its hourly counters) passes the threshold and resolves when it drops, delivering each once through the component's deliver()", async () => {
    expect(
      (
        await tk.request('POST', '/components', {
          body: { type: 'capture', id: 'pager', name: 'pager', config: { token: 'pager-secret' } },
        })
      ).status,
    ).to.equal(201);
    const rule = await tk.request('POST', '/alerts/rules', {
      body: {
        id: 'wf-errors',
        name: 'WorkflowErrors',
        signal: 'error_rate',
        selector: { workflow: 'wf-x' },
        op: '>',
        threshold: 0.2,
        for_seconds: 0,
        notify: [{ component: 'pager' }],
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    expect(rule.body.notify).to.deep.equal([{ component: 'pager' }]);
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const row = {
      tenant_id: 'default',
      hour,
      workflow_id: 'wf-x',
      messages_in: 10,
      attempts: 10,
      processed: 5,
      errors: 5,
      dead: 0,
      latency_hist: '{0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}',
    };
    await db()('workflows_hourly').insert([
      row,
      { ...row, workflow_id: 'wf-other' },
      { ...row, tenant_id: 'elsewhere' },
    ]);

    const firing = await until(() => captured.find((c) => (c.message.value as any)?.status === 'firing'), 20_000, {
      what: 'firing delivered',
    });
    expect(firing.componentId).to.equal('pager');
    expect(firing.secret).to.equal('pager-secret');
    const body = firing.message.value as any;
    expect(body).to.include({ version: '4', status: 'firing' });
    expect(body.alerts).to.have.length(1);
    expect(body.alerts[0].labels).to.include({
      alertname: 'WorkflowErrors',
      workflow: 'wf-x',
      rule_id: 'wf-errors',
      tenant_id: 'default',
    });
    expect(JSON.parse(Buffer.from(firing.message.body as Uint8Array).toString('utf8'))).to.deep.equal(body);
    const alerts = await tk.request('GET', '/alerts?rule=wf-errors');
    expect(alerts.body.items.map((a: any) => [a.state, a.value])).to.deep.equal([['firing', 0.5]]);

    await db()('workflows_hourly').where({ tenant_id: 'default', workflow_id: 'wf-x' }).update({ errors: 1 });
    await until(() => captured.find((c) => (c.message.value as any)?.status === 'resolved'), 20_000, {
      what: 'resolved delivered',
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(captured.map((c) => (c.message.value as any).status)).to.deep.equal(['firing', 'resolved']);
    const sent = await db()('alerts_notifications')
      .where({ tenant_id: 'default' })
      .select('url', 'status', 'sent_at', 'error');
    expect(sent.map((n: any) => [n.url, n.status, n.error])).to.have.deep.members([
      ['component:pager', 'firing', null],
      ['component:pager', 'resolved', null],
    ]);
  });

  it("fires on open BPMN incidents per process (the bpmn plugin's incidents signal), nothing of another tenant", async () => {
    const rule = await tk.request('POST', '/alerts/rules', {
      body: {
        id: 'incidents',
        name: 'OpenIncidents',
        signal: 'incidents',
        op: '>',
        threshold: 0,
        for_seconds: 0,
        notify: [{ component: 'pager' }],
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    const now = new Date();
    const instance = (tenant: string, id: string, process: string) => ({
      tenant_id: tenant,
      id,
      definition_key: process,
      process_id: process,
      version: 1,
      state: 'failed',
      variables: '{}',
      waiting: '[]',
      revision: 1,
      created_at: now,
      updated_at: now,
    });
    await db()('bpmn_instances').insert([
      instance('default', 'i1', 'billing'),
      instance('default', 'i2', 'billing'),
      instance('elsewhere', 'i3', 'billing'),
    ]);
    const incident = (tenant: string, id: string, instanceId: string, state = 'open') => ({
      tenant_id: tenant,
      id,
      instance_id: instanceId,
      message: 'boom',
      state,
      created_at: now,
    });
    await db()('bpmn_incidents').insert([
      incident('default', 'x1', 'i1'),
      incident('default', 'x2', 'i2'),
      incident('default', 'x3', 'i2', 'resolved'),
      incident('elsewhere', 'x4', 'i3'),
    ]);
    const fired = await until(
      () => captured.find((c) => (c.message.value as any)?.alerts?.[0]?.labels?.alertname === 'OpenIncidents'),
      20_000,
      { what: 'incidents firing delivered' },
    );
    expect((fired.message.value as any).alerts[0].labels).to.include({ process: 'billing', tenant_id: 'default' });
    const alerts = await tk.request('GET', '/alerts?rule=incidents');
    expect(alerts.body.items.map((a: any) => [a.state, a.value])).to.deep.equal([['firing', 2]]);
  });
});
