import { expect } from 'chai';
import mqtt from 'mqtt';
import type { TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import {
  makeComponent,
  makeStream,
  messagesOf,
  runtimeKernel,
  start,
  textOf,
  unique,
  waitForState,
} from './helpers.js';

/** `runtime_stage_messages_total` and `runtime_stage_seconds_count` (batches) of a stage, from /metrics. */
async function stage(tk: TestKernel, name: string): Promise<{ messages: number; batches: number }> {
  const res = await tk.request('GET', '/metrics');
  const text: string = res.text;
  const read = (metric: string) =>
    Number(new RegExp(`^${metric}\\{stage="${name}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { messages: read('runtime_stage_messages_total'), batches: read('runtime_stage_seconds_count') };
}

describe('connectors: a source appends what arrives together as one batch', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await runtimeKernel();
  });
  after(() => tk?.close());

  it('mqtt.subscribe: a burst of QoS 1 messages is appended in order, in fewer writes than messages (each one statement with its lease fence), and the /health answer does not wait for it', async () => {
    const stream = unique('mqtt-batch');
    const topic = `rt-test/${unique('b')}`;
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('mqtt-batch-src'),
      type: 'mqtt.subscribe',
      stream,
      config: { url: 'mqtt://127.0.0.1:1883', topic, client_id: unique('rt-batch') },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const before = await stage(tk, 'source_append');
    const statements: string[] = [];
    const record = (query: { sql: string }) => void statements.push(query.sql);
    tk.kernel.database.knex.on('query', record);
    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    const count = 400;
    // All in flight at once: the broker delivers them as fast as the source acknowledges.
    const published = Promise.all(
      Array.from({ length: count }, (_, n) => publisher.publishAsync(topic, JSON.stringify({ n }), { qos: 1 })),
    );
    const health: number[] = [];
    const appended = until(
      async () => {
        const t = performance.now();
        const res = await tk.request('GET', '/health');
        health.push(performance.now() - t);
        expect(res.status).to.equal(200);
        const found = await messagesOf(tk, stream);
        return found.length >= count ? found : undefined;
      },
      60_000,
      { what: `${count} mqtt messages` },
    );
    await published;
    await publisher.endAsync();
    const messages = await appended;
    tk.kernel.database.knex.off('query', record);
    expect(messages.map(textOf)).to.deep.equal(Array.from({ length: count }, (_, n) => JSON.stringify({ n })));
    const after = await stage(tk, 'source_append');
    const batches = after.batches - before.batches;
    expect(after.messages - before.messages).to.equal(count);
    expect(batches, 'writes for the burst')
      .to.be.greaterThan(0)
      .and.lessThan(count / 2);
    // Each batch one statement: the lease fence guarding the partition counter's move and the insert.
    const combined = statements.filter(
      (sql) =>
        /^WITH lease_fence_\d+ AS/.test(sql) &&
        /stream_counter_\d+ AS/.test(sql) &&
        sql.includes('INSERT INTO streams_messages'),
    );
    expect(combined.length, 'batches appended as one statement').to.equal(batches);
    // The kernel answered between batches (a loaded 2-core machine: a generous bound).
    expect(Math.max(...health), '/health while the burst was appended (ms)').to.be.lessThan(2000);
  });
});
