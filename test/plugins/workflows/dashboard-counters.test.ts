import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createStream, deploy, publish, readAll } from './support.js';
import { until } from '../../support/poll.js';

describe("workflows: hourly counters behind the dashboard's 24h window", function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'dashboard'],
      auth: { mode: 'none' },
      log: { level: 'error' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
    });
  });
  after(() => tk?.close());

  it('the worker adds each batch to its (tenant, workflow, hour) row, and GET /dashboard?window=24h reads them: same figures as the deliveries, nothing of another tenant', async () => {
    await createStream(tk, 'c-in', 2);
    await createStream(tk, 'c-out');
    await createStream(tk, 'c-dlq');
    const step = {
      type: 'script',
      config: {
        source:
          "const v = service.json.decode(input.body); if (v.poison) throw new Error('poisoned'); service.route.push(v);",
      },
    };
    const body = {
      id: 'counted',
      name: 'Counted',
      input: { stream: 'c-in' },
      steps: [step],
      sinks: [{ type: 'stream.publish', config: { stream: 'c-out' } }],
      on_error: { max_attempts: 2, backoff_ms: 50, dead_letter_stream: 'c-dlq' },
    };
    expect((await tk.request('POST', '/workflows', { body })).status).to.equal(201);
    await deploy(tk, 'counted', 'deploy-counted-1');
    await publish(tk, 'c-in', [
      { key: 'a', value: { poison: true } },
      { key: 'a', value: { n: 1 } },
      { key: 'b', value: { n: 2 } },
      { key: 'c', value: { n: 3 } },
    ]);
    await until(
      async () => (await readAll(tk, 'c-out')).length === 3 && (await readAll(tk, 'c-dlq')).length === 1,
      30_000,
      { what: 'three outputs and one dead letter' },
    );

    const rows = await db()('workflows_hourly').where({ tenant_id: 'default', workflow_id: 'counted' });
    const sum = (field: string) => rows.reduce((s: number, r: any) => s + Number(r[field]), 0);
    expect({
      messages_in: sum('messages_in'),
      attempts: sum('attempts'),
      processed: sum('processed'),
      errors: sum('errors'),
      dead: sum('dead'),
    }).to.deep.equal({ messages_in: 4, attempts: 5, processed: 3, errors: 2, dead: 1 });
    for (const r of rows) expect(new Date(r.hour).getTime() % 3_600_000).to.equal(0);
    const histTotal = rows.reduce(
      (s: number, r: any) =>
        s +
        (typeof r.latency_hist === 'string' ? r.latency_hist.replace(/[{}]/g, '').split(',') : r.latency_hist)
          .map(Number)
          .reduce((a: number, b: number) => a + b, 0),
      0,
    );
    expect(histTotal).to.equal(3);

    const day = await tk.request('GET', '/dashboard?window=24h');
    expect(day.status, day.text).to.equal(200);
    const fromCounters = day.body.sections.workflows.find((w: any) => w.workflow === 'counted');
    expect(fromCounters).to.include({ messages_in: 4, messages_out: 3, errors: 2, error_rate: 2 / 5, dead_letters: 1 });
    expect(fromCounters.p95_ms).to.be.a('number');
    const hour = await tk.request('GET', '/dashboard?window=1h');
    expect(hour.body.sections.workflows.find((w: any) => w.workflow === 'counted')).to.include({
      messages_in: 4,
      messages_out: 3,
      errors: 2,
      error_rate: 2 / 5,
    });
    // Counters are read through the tenant's key: another tenant's day is empty.
    const other = await tk.request('GET', '/dashboard?window=24h&tenant_id=other-counters');
    expect(other.body.sections.workflows).to.deep.equal([]);
  });
});
