import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('dashboard: GET /dashboard', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'components', 'streams', 'alerts', 'dashboard'],
      auth: { mode: 'none' },
      log: { level: 'error' },
      settings: { alerts: { evaluation_interval_ms: 3_600_000 } },
    });
  });
  after(() => tk?.close());

  it("summarises the tenant's components, per-workflow traffic and dead letters, lag, alerts and recent audit, and nothing of another tenant", async () => {
    for (const id of ['a', 'b', 'c'])
      expect(
        (await tk.request('POST', '/components', { body: { type: 'passthrough', id, name: id } })).status,
      ).to.equal(201);
    await db()('components').where({ tenant_id: 'default', id: 'c' }).update({ state: 'failed' });
    expect(
      (
        await tk.request('POST', '/components', {
          body: { type: 'passthrough', tenant_id: 'other', id: 'x', name: 'x' },
        })
      ).status,
    ).to.equal(201);
    expect((await tk.request('POST', '/streams', { body: { id: 'in', name: 'in' } })).status).to.equal(201);
    const published = await tk.request('POST', '/streams/in/messages', {
      body: { messages: [{ value: 1 }, { value: 2 }, { value: 3 }, { value: 4 }] },
    });
    const ids = published.body.messages.map((m: any) => m.id) as string[];
    const now = Date.now();
    const delivery = (message: string, attempt: number, status: string, agoMs: number, workflow = 'billing') => ({
      tenant_id: 'default',
      message_id: message,
      workflow,
      revision: 1,
      run_id: `r-${message}-${attempt}`,
      attempt,
      status,
      error: status === 'processed' ? null : 'boom',
      outputs: '[]',
      at: new Date(now - agoMs),
    });
    await db()('streams_deliveries').insert([
      delivery(ids[0] as string, 1, 'processed', 1000),
      delivery(ids[1] as string, 1, 'processed', 1000),
      delivery(ids[2] as string, 1, 'failed', 2000),
      delivery(ids[2] as string, 2, 'dead', 1000),
      // Outside the 5m window, inside 1h.
      delivery(ids[3] as string, 1, 'processed', 20 * 60_000),
      { ...delivery(ids[0] as string, 1, 'processed', 1000, 'billing'), tenant_id: 'other' },
    ]);
    // The dead delivery's open dead letter, as the worker records it with the delivery.
    await db()('streams_dead_letters').insert({
      tenant_id: 'default',
      workflow: 'billing',
      message_id: ids[2],
      at: new Date(now - 1000),
    });
    const stream = await db()('streams_streams').where({ tenant_id: 'default', id: 'in' }).first('uid');
    await db()('streams_consumer_offsets').insert({
      tenant_id: 'default',
      stream_uid: stream.uid,
      consumer: 'billing',
      partition: 0,
      committed_offset: 1,
      updated_at: new Date(),
    });
    expect(
      (
        await tk.request('POST', '/alerts/rules', {
          body: { id: 'r1', name: 'R1', signal: 'dlq_depth', op: '>', threshold: 0 },
        })
      ).status,
    ).to.equal(201);
    await db()('alerts_alerts').insert({
      tenant_id: 'default',
      id: 'alt_aaaaaaaaaaaaaaaaaaaaaaaa',
      rule_id: 'r1',
      fingerprint: 'f',
      state: 'firing',
      labels: '{}',
      annotations: '{}',
      value: 1,
      started_at: new Date(),
      fired_at: new Date(),
      updated_at: new Date(),
    });

    const res = await tk.request('GET', '/dashboard?window=5m');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.window).to.equal('5m');
    expect(Date.parse(res.body.until) - Date.parse(res.body.since)).to.equal(300_000);
    const { components, workflows, alerts, recent_audit: audit } = res.body.sections;
    expect(components).to.deep.equal({ by_state: { running: 2, failed: 1 }, total: 3 }); // processors are made running (usable at once)
    expect(workflows).to.have.length(1);
    expect(workflows[0]).to.include({
      workflow: 'billing',
      messages_in: 3,
      messages_out: 2,
      errors: 2,
      error_rate: 0.5,
      dead_letters: 1,
      lag: 3,
    });
    expect(workflows[0].p95_ms).to.be.a('number');
    expect(workflows[0].oldest_unacked_seconds).to.be.a('number');
    expect(alerts).to.include({ firing: 1, pending: 0 });
    expect(alerts.items.map((a: any) => a.id)).to.deep.equal(['alt_aaaaaaaaaaaaaaaaaaaaaaaa']);
    expect(audit.length).to.be.greaterThan(0);
    expect(audit.map((a: any) => a.operation)).to.include('createAlertRule');

    const hour = await tk.request('GET', '/dashboard?window=1h');
    expect(hour.body.sections.workflows[0]).to.include({ messages_in: 4, messages_out: 3 });
    const other = await tk.request('GET', '/dashboard?tenant_id=other');
    expect(other.body.window).to.equal('1h');
    expect(other.body.sections.components.total).to.equal(1);
    expect(other.body.sections.workflows[0]).to.include({ messages_in: 1, dead_letters: 0 });
    expect(other.body.sections.alerts.firing).to.equal(0);
    expect((await tk.request('GET', '/dashboard?window=7d')).status).to.equal(400);
  });
});
