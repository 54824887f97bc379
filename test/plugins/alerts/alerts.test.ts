import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { checkWebhookUrl, isPrivateAddress } from '../../../plugins/alerts/outbound-guard.js';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { startReceiver, type Receiver } from './receiver.js';
import { until } from '../../support/poll.js';

const PLUGINS = ['system', 'audit', 'components', 'streams', 'alerts'];
const SETTINGS = { alerts: { evaluation_interval_ms: 200, allow_private_webhooks: true } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('alerts: rules, evaluation and Alertmanager notifications', function () {
  this.timeout(120_000);
  const schema = `t_alerts_${randomBytes(5).toString('hex')}`;
  let tk: TestKernel;
  /** On PostgreSQL a second kernel on the same schema evaluates too: neither may double-notify. */
  let second: TestKernel | undefined;
  let receiver: Receiver;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    receiver = await startReceiver();
    tk = await startKernel(
      { plugins: PLUGINS, auth: { mode: 'none' }, settings: SETTINGS },
      onPostgres ? { schema } : {},
    );
    if (onPostgres)
      second = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' }, settings: SETTINGS }, { schema });
  });
  after(async () => {
    await second?.close();
    if (onPostgres && tk) await db().raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await tk?.close();
    await receiver?.close();
  });

  async function deadMessages(stream: string, workflow: string, count: number): Promise<string[]> {
    expect((await tk.request('POST', '/streams', { body: { id: stream, name: stream } })).status).to.equal(201);
    const res = await tk.request('POST', `/streams/${stream}/messages`, {
      body: { messages: Array.from({ length: count }, (_, i) => ({ value: { i } })) },
    });
    expect(res.status, res.text).to.equal(201);
    const ids = res.body.messages.map((m: any) => m.id) as string[];
    for (const id of ids) {
      for (const [attempt, status] of ['failed', 'dead'].entries()) {
        await db()('streams_deliveries').insert({
          tenant_id: 'default',
          message_id: id,
          workflow,
          revision: 1,
          run_id: `run-${id}`,
          attempt: attempt + 1,
          status,
          error: 'boom',
          outputs: '[]',
          at: new Date(),
        });
      }
      // The open dead letter the worker records with a dead delivery (a redrive closes it).
      await db()('streams_dead_letters').insert({ tenant_id: 'default', workflow, message_id: id, at: new Date() });
    }
    return ids;
  }

  async function stateOf(rule: string): Promise<any | undefined> {
    const res = await tk.request('GET', `/alerts?rule=${rule}`);
    expect(res.status, res.text).to.equal(200);
    return res.body.items.at(-1);
  }

  const notificationsOf = (rule: string) => receiver.bodies.filter((b) => b.body.alerts[0].labels.rule_id === rule);

  it('takes a dead-letter rule pending → firing → resolved as messages die and are redriven, notifying firing and resolved once each in the Alertmanager v4 shape', async () => {
    const rule = await tk.request('POST', '/alerts/rules', {
      body: {
        id: 'billing-dlq',
        name: 'BillingDeadLetters',
        signal: 'dlq_depth',
        selector: { workflow: 'billing' },
        op: '>',
        threshold: 1,
        for_seconds: 1,
        severity: 'critical',
        labels: { team: 'payments' },
        annotations: { summary: 'billing has dead letters' },
        notify: [{ webhook_url: receiver.url }],
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    expect(rule.body).to.include({
      id: 'billing-dlq',
      signal: 'dlq_depth',
      op: '>',
      threshold: 1,
      for_seconds: 1,
      severity: 'critical',
    });

    await deadMessages('orders', 'billing', 2);
    const pending = await until(
      async () => ((await stateOf('billing-dlq'))?.state === 'pending' ? stateOf('billing-dlq') : undefined),
      20_000,
      { what: 'pending' },
    );
    expect(pending).to.include({ state: 'pending', value: 2, fired_at: null });
    const firing = await until(
      async () => ((await stateOf('billing-dlq'))?.state === 'firing' ? stateOf('billing-dlq') : undefined),
      20_000,
      { what: 'firing' },
    );
    expect(Date.parse(firing.fired_at) - Date.parse(firing.started_at)).to.be.at.least(1000);
    expect(firing.labels).to.include({
      alertname: 'BillingDeadLetters',
      severity: 'critical',
      team: 'payments',
      workflow: 'billing',
    });

    const fired = await until(async () => notificationsOf('billing-dlq')[0], 20_000, {
      what: 'the firing notification',
    });
    expect(fired.method).to.equal('POST');
    expect(fired.contentType).to.equal('application/json');
    const body = fired.body;
    expect(body).to.include({ version: '4', status: 'firing', receiver: 'default/billing-dlq', truncatedAlerts: 0 });
    expect(body.groupKey).to.be.a('string');
    expect(body.groupLabels).to.deep.equal({ alertname: 'BillingDeadLetters' });
    expect(body.commonLabels).to.include({ alertname: 'BillingDeadLetters', severity: 'critical', team: 'payments' });
    expect(body.commonAnnotations).to.deep.equal({ summary: 'billing has dead letters' });
    expect(body.externalURL).to.be.a('string');
    expect(body.alerts).to.have.length(1);
    expect(body.alerts[0]).to.have.all.keys(
      'status',
      'labels',
      'annotations',
      'startsAt',
      'endsAt',
      'generatorURL',
      'fingerprint',
    );
    expect(body.alerts[0]).to.include({ status: 'firing', endsAt: '0001-01-01T00:00:00Z' });
    expect(Date.parse(body.alerts[0].startsAt)).to.equal(Date.parse(firing.fired_at));

    // The alert's state is on /metrics.
    const metrics = await tk.request('GET', '/metrics');
    expect(metrics.text).to.match(/runtime_alerts\{[^}]*rule_id="billing-dlq"[^}]*state="firing"[^}]*\} 1/);

    const redrive = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'billing', status: 'dead', limit: 10, request_id: 'redrive-1' },
    });
    expect(redrive.status, redrive.text).to.equal(200);
    expect(redrive.body.replayed).to.equal(2);
    const resolved = await until(
      async () => ((await stateOf('billing-dlq'))?.state === 'resolved' ? stateOf('billing-dlq') : undefined),
      20_000,
      { what: 'resolved' },
    );
    expect(resolved.resolved_at).to.be.a('string');
    const done = await until(
      async () => notificationsOf('billing-dlq').find((n) => n.body.status === 'resolved'),
      20_000,
      { what: 'the resolved notification' },
    );
    expect(done.body.alerts[0]).to.include({
      status: 'resolved',
      fingerprint: body.alerts[0].fingerprint,
      startsAt: body.alerts[0].startsAt,
    });
    expect(Date.parse(done.body.alerts[0].endsAt)).to.equal(Date.parse(resolved.resolved_at));

    // Several more evaluations (on both kernels where there are two) add nothing.
    await sleep(1500);
    expect(notificationsOf('billing-dlq').map((n) => n.body.status)).to.deep.equal(['firing', 'resolved']);
    const rows = await db()('alerts_notifications').where({ alert_id: firing.id }).orderBy('seq');
    expect(rows.map((r: any) => [r.status, r.attempts, r.sent_at !== null])).to.deep.equal([
      ['firing', 1, true],
      ['resolved', 1, true],
    ]);
    const metricsAfter = await tk.request('GET', '/metrics');
    expect(metricsAfter.text).to.not.match(/runtime_alerts\{[^}]*rule_id="billing-dlq"/);
  });

  it('sends nothing for an alert a silence matches, and acknowledges alerts', async () => {
    const silence = await tk.request('POST', '/alerts/silences', {
      body: {
        matchers: [{ name: 'team', value: 'quiet' }],
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
        comment: 'maintenance',
      },
    });
    expect(silence.status, silence.text).to.equal(201);
    const rule = await tk.request('POST', '/alerts/rules', {
      body: {
        id: 'quiet-dlq',
        name: 'QuietDeadLetters',
        signal: 'dlq_depth',
        selector: { workflow: 'quiet' },
        op: '>',
        threshold: 0,
        labels: { team: 'quiet' },
        notify: [{ webhook_url: receiver.url }],
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    await deadMessages('quiet-stream', 'quiet', 1);
    const firing = await until(
      async () => ((await stateOf('quiet-dlq'))?.state === 'firing' ? stateOf('quiet-dlq') : undefined),
      20_000,
      { what: 'firing' },
    );
    expect(firing.silenced).to.equal(true);
    await sleep(1000);
    expect(notificationsOf('quiet-dlq')).to.have.length(0);
    expect(await db()('alerts_notifications').where({ alert_id: firing.id })).to.have.length(0);

    const ack = await tk.request('POST', `/alerts/${firing.id}/ack`, { body: {} });
    expect(ack.status, ack.text).to.equal(200);
    expect(ack.body.acked_at).to.be.a('string');
    expect((await db()('alerts_alerts').where({ id: firing.id }).first()).acked_at).to.not.equal(null);
    expect((await tk.request('POST', '/alerts/alt_000000000000000000000000/ack', { body: {} })).status).to.equal(404);
  });

  it('refuses rules with unknown signals, unknown selector keys or bad webhooks with 400', async () => {
    const base = { name: 'x', signal: 'dlq_depth', op: '>', threshold: 0 };
    const unknownSignal = await tk.request('POST', '/alerts/rules', { body: { ...base, signal: 'cpu_temperature' } });
    expect(unknownSignal.status).to.equal(400);
    expect(unknownSignal.body.error.message).to.include('dlq_depth');
    expect(unknownSignal.body.error.details[0].pointer).to.equal('/signal');
    const unknownSelector = await tk.request('POST', '/alerts/rules', { body: { ...base, selector: { pod: 'a' } } });
    expect(unknownSelector.status).to.equal(400);
    expect(unknownSelector.body.error.details[0].pointer).to.equal('/selector/pod');
    const badOp = await tk.request('POST', '/alerts/rules', { body: { ...base, op: '~' } });
    expect(badOp.status).to.equal(400);
    const badUrl = await tk.request('POST', '/alerts/rules', {
      body: { ...base, notify: [{ webhook_url: 'file:///etc/passwd' }] },
    });
    expect(badUrl.status).to.equal(400);
    expect(await db()('alerts_rules').where({ name: 'x' })).to.have.length(0);
    const signals = await tk.request('GET', '/alert-signals');
    expect(signals.body.items.map((s: any) => s.name)).to.deep.equal([
      'component_failed',
      'consumer_lag',
      'dlq_depth',
      'oldest_unacked_seconds',
    ]);
  });

  it('refuses loopback and private webhook targets unless allowed', () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://localhost:9093/',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
    ]) {
      expect(() => checkWebhookUrl(url, false), url).to.throw(/loopback or private/);
      expect(() => checkWebhookUrl(url, true), url).to.not.throw();
    }
    expect(() => checkWebhookUrl('https://alerts.example.com/hook', false)).to.not.throw();
    expect(isPrivateAddress('192.168.1.1')).to.equal(true);
    expect(isPrivateAddress('8.8.8.8')).to.equal(false);
  });

  it('reads, replaces and deletes rules, tenant by tenant', async () => {
    const put = await tk.request('PUT', '/alerts/rules/billing-dlq', {
      body: {
        name: 'BillingDeadLetters',
        signal: 'consumer_lag',
        selector: { stream: 'orders' },
        op: '>=',
        threshold: 100,
      },
    });
    expect(put.status, put.text).to.equal(200);
    expect(put.body).to.include({ signal: 'consumer_lag', revision: 2, threshold: 100 });
    expect((await tk.request('GET', '/alerts/rules/billing-dlq?tenant_id=other')).status).to.equal(404);
    expect((await tk.request('DELETE', '/alerts/rules/billing-dlq')).status).to.equal(204);
    expect((await tk.request('GET', '/alerts/rules/billing-dlq')).status).to.equal(404);
  });
});
