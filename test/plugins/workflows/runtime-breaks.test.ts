import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { createStream, deploy, publish, readAll } from './support.js';

const ORDER = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'total', type: 'double' },
  ],
};
/** Adds a field without default: what the workflow writes no longer encodes (a forced, breaking change). */
const ORDER_NEEDS_CURRENCY = { ...ORDER, fields: [...ORDER.fields, { name: 'currency', type: 'string' }] };
const ORDER_WITH_DEFAULT = {
  ...ORDER,
  fields: [...ORDER.fields, { name: 'currency', type: 'string', default: 'EUR' }],
};

/**
 * Issue 23 item 4: a workflow whose run time breaks — here the codec of the stream it writes to,
 * changed with ?force=true so its output no longer encodes — shows the error on the workflow and
 * in GET /logs, and raises the workflow_failed alert signal; once it works again, all clear.
 */
describe('workflows: a run time that breaks is shown, logged and alerted', function () {
  this.timeout(120_000);
  let tk: TestKernel;

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'alerts'],
      auth: { mode: 'none' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 }, alerts: { evaluation_interval_ms: 200 } },
    });
  });
  after(() => tk?.close());

  it('an output codec changed with force turns the workflow failing (last_error, failed_at, /logs, workflow_failed fires); fixed, it processes the held message and clears', async () => {
    const codec = await tk.request('POST', '/codecs', {
      body: { id: 'orders', name: 'orders', kind: 'avro', schema: ORDER },
    });
    expect(codec.status, codec.text).to.equal(201);
    await createStream(tk, 'in');
    const out = await tk.request('POST', '/streams', { body: { id: 'out', name: 'out', codec: 'orders' } });
    expect(out.status, out.text).to.equal(201);
    const made = await tk.request('POST', '/workflows', {
      body: {
        id: 'orders',
        name: 'orders',
        input: { stream: 'in' },
        steps: [],
        sinks: [{ type: 'stream.publish', config: { stream: 'out' } }],
        on_error: { max_attempts: 100, backoff_ms: 200 },
      },
    });
    expect(made.status, made.text).to.equal(201);
    await deploy(tk, 'orders', 'deploy-orders');
    const rule = await tk.request('POST', '/alerts/rules', {
      body: {
        id: 'orders-failing',
        name: 'orders failing',
        signal: 'workflow_failed',
        selector: { workflow: 'orders' },
        op: '>=',
        threshold: 1,
        for_seconds: 0,
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    await publish(tk, 'in', [{ value: { id: 'a', total: 1 } }]);
    await until(async () => (await readAll(tk, 'out')).length === 1, 30_000, { what: 'the first order written' });

    const forced = await tk.request('PUT', '/codecs/orders?force=true', {
      body: { name: 'orders', schema: ORDER_NEEDS_CURRENCY },
    });
    expect(forced.status, forced.text).to.equal(200);
    await publish(tk, 'in', [{ value: { id: 'b', total: 2 } }]);
    const failing = await until(
      async () => {
        const w = (await tk.request('GET', '/workflows/orders')).body;
        return typeof w.last_error === 'string' && w;
      },
      30_000,
      { what: 'the workflow failing' },
    );
    expect(failing.last_error).to.include('currency');
    expect(failing.failed_at).to.be.a('string');
    const logs = (await tk.request('GET', '/logs?source=workflows&level=error')).body.items as any[];
    expect(logs.some((l) => l.fields?.workflow === 'orders' && String(l.fields?.error).includes('currency'))).to.equal(
      true,
    );
    const firing = await until(
      async () => {
        const alerts = (await tk.request('GET', '/alerts?state=firing')).body.items as any[];
        return alerts.find((a) => a.labels?.workflow === 'orders');
      },
      30_000,
      { what: 'workflow_failed fires' },
    );
    expect(firing.labels).to.include({ alertname: 'orders failing' });

    // Fixed (the new field gets a default): the held message goes through, and everything clears.
    const fixed = await tk.request('PUT', '/codecs/orders?force=true', {
      body: { name: 'orders', schema: ORDER_WITH_DEFAULT },
    });
    expect(fixed.status, fixed.text).to.equal(200);
    const written = await until(
      async () => {
        const all = await readAll(tk, 'out');
        return all.length === 2 && all;
      },
      30_000,
      { what: 'the held order written' },
    );
    expect(written[1].value).to.deep.include({ id: 'b', total: 2, currency: 'EUR' });
    await until(async () => (await tk.request('GET', '/workflows/orders')).body.last_error === undefined, 30_000, {
      what: 'the workflow clear',
    });
    await until(
      async () =>
        !((await tk.request('GET', '/alerts?state=firing')).body.items as any[]).some(
          (a) => a.labels?.workflow === 'orders',
        ),
      30_000,
      { what: 'workflow_failed resolved' },
    );
  });
});
