import { expect } from 'chai';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { connect } from 'nats';
import type { TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { makeComponent, messagesOf, runtimeKernel, start, textOf, unique, waitForState } from './helpers.js';

/**
 * Per-device order across partitions: MQTT, AMQP and NATS sources key what they append by the
 * address it arrived on or by a field of its JSON payload; same key, same partition, in order.
 */
function payload(m: any): any {
  try {
    return JSON.parse(textOf(m));
  } catch {
    return undefined;
  }
}

describe('connectors: sources set the message key (address or payload field)', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await runtimeKernel();
  });
  after(() => tk?.close());

  async function stream(partitions: number): Promise<string> {
    const id = unique('keyed');
    const res = await tk.request('POST', '/streams', { body: { id, name: id, partitions } });
    expect(res.status, res.text).to.equal(201);
    return id;
  }

  /** Keys as expected; every key in one partition, its messages in publish order. */
  function expectKeyed(messages: any[], keyOf: (m: any) => string | null): void {
    const partitions = new Map<string, Set<number>>();
    for (const m of messages) {
      expect(m.key).to.equal(keyOf(m));
      if (m.key === null) continue;
      partitions.set(m.key, (partitions.get(m.key) ?? new Set()).add(m.partition));
    }
    for (const [key, set] of partitions) expect(set.size, `${key} in one partition`).to.equal(1);
    for (const key of partitions.keys()) {
      const ns = messages
        .filter((m) => m.key === key)
        .sort((a, b) => a.offset - b.offset)
        .map((m) => m.value.n);
      expect(ns, `${key} in order`).to.deep.equal([...ns].sort((a, b) => a - b));
    }
  }

  it('mqtt.subscribe keyed by topic', async () => {
    const id = await stream(4);
    const base = `rt-test/${unique('keys')}`;
    const c = await makeComponent(tk, {
      name: unique('mqtt-keyed'),
      type: 'mqtt.subscribe',
      stream: id,
      config: { url: 'mqtt://127.0.0.1:1883', topic: `${base}/+`, key: { from: 'address' } },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    for (let n = 0; n < 12; n++)
      await publisher.publishAsync(`${base}/dev-${n % 3}`, JSON.stringify({ n }), { qos: 1 });
    await publisher.endAsync();
    const messages = await until(
      async () => {
        const found = await messagesOf(tk, id);
        return found.length >= 12 && found;
      },
      30_000,
      { what: 'twelve' },
    );
    expectKeyed(
      messages.map((m) => ({ ...m, value: payload(m) })),
      (m) => m.headers['mqtt-topic'],
    );
    expect(new Set(messages.map((m) => m.key)).size).to.equal(3);
  });

  it('amqp.consume and nats.subscribe keyed by a payload field; a payload without it is unkeyed, not refused', async () => {
    const [amqpStream, natsStream] = [await stream(4), await stream(4)];
    const queue = unique('rt-keys');
    const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    const subject = unique('keys');
    try {
      const a = await makeComponent(tk, {
        name: unique('amqp-keyed'),
        type: 'amqp.consume',
        stream: amqpStream,
        config: { url: 'amqp://guest:guest@127.0.0.1:5672', queue, key: { from: 'payload', pointer: '/device/id' } },
      });
      const n = await makeComponent(tk, {
        name: unique('nats-keyed'),
        type: 'nats.subscribe',
        stream: natsStream,
        config: { url: 'nats://127.0.0.1:4222', subject, key: { from: 'payload', pointer: '/device/id' } },
      });
      const bad = await tk.request('POST', '/components', {
        body: {
          name: unique('bad-key'),
          type: 'nats.subscribe',
          stream: natsStream,
          config: { url: 'nats://127.0.0.1:4222', subject, key: { from: 'payload' } },
        },
      });
      expect(bad.status, bad.text).to.equal(400);
      for (const c of [a, n]) await start(tk, c.id);
      for (const c of [a, n]) await waitForState(tk, c.id, 'running');
      const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
      const bodies = Array.from({ length: 12 }, (_, i) => JSON.stringify({ n: i, device: { id: `d${i % 3}` } }));
      for (const b of bodies) {
        channel.sendToQueue(queue, Buffer.from(b));
        nc.publish(subject, Buffer.from(b));
      }
      channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: 99 })));
      nc.publish(subject, Buffer.from('not json'));
      await nc.drain();
      for (const s of [amqpStream, natsStream]) {
        const messages = await until(
          async () => {
            const found = await messagesOf(tk, s);
            return found.length >= 13 && found;
          },
          30_000,
          { what: `thirteen in ${s}` },
        );
        // Sent without a content type: the bodies are bytes here, JSON inside.
        const parsed = messages.map((m) => ({ ...m, value: payload(m) }));
        const keyed = parsed.filter((m) => m.value?.device);
        expectKeyed(keyed, (m) => m.value.device.id);
        expect(parsed.filter((m) => !m.value?.device).map((m) => m.key)).to.deep.equal([null]);
      }
    } finally {
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    }
  });
});
