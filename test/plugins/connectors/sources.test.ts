import { expect } from 'chai';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { connect, headers as natsHeaders } from 'nats';
import type { TestKernel } from '../../support/kernel.js';
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
import { until } from '../../support/poll.js';

describe('connectors: sources against the real brokers append to their stream', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await runtimeKernel();
  });
  after(() => tk?.close());

  it('mqtt.subscribe: messages published to the topic are in the stream, with their topic', async () => {
    const stream = unique('mqtt-in');
    const topic = `rt-test/${unique('t')}`;
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('mqtt-src'),
      type: 'mqtt.subscribe',
      stream,
      config: { url: 'mqtt://127.0.0.1:1883', topic },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    for (const n of [1, 2, 3]) await publisher.publishAsync(topic, JSON.stringify({ n }), { qos: 1 });
    await publisher.endAsync();
    const messages = await until(
      async () => {
        const found = await messagesOf(tk, stream);
        return found.length >= 3 ? found : undefined;
      },
      30_000,
      { what: 'three mqtt messages' },
    );
    expect(messages.map(textOf)).to.deep.equal(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(messages[0].headers).to.include({ 'mqtt-topic': topic, 'x-source': 'mqtt' });
  });

  it('amqp.consume: queue messages are in the stream and acknowledged (the queue is empty afterwards); a redelivered message-id appends nothing', async () => {
    const stream = unique('amqp-in');
    const queue = unique('rt-q');
    const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    try {
      await makeStream(tk, stream);
      const c = await makeComponent(tk, {
        name: unique('amqp-src'),
        type: 'amqp.consume',
        stream,
        config: { url: 'amqp://guest:guest@127.0.0.1:5672', queue },
      });
      expect(c.config).to.not.have.property('url'); // the URL carries the password: a secret
      expect(c.secrets_set).to.deep.equal(['url']);
      await start(tk, c.id);
      await waitForState(tk, c.id, 'running');
      channel.sendToQueue(queue, Buffer.from('first'), { messageId: 'm-1', contentType: 'text/plain' });
      channel.sendToQueue(queue, Buffer.from('second'), { messageId: 'm-2', contentType: 'text/plain' });
      channel.sendToQueue(queue, Buffer.from('first'), { messageId: 'm-1', contentType: 'text/plain' }); // a redelivery
      const messages = await until(
        async () => {
          const found = await messagesOf(tk, stream);
          const q = await channel.checkQueue(queue);
          return found.length >= 2 && q.messageCount === 0 ? found : undefined;
        },
        30_000,
        { what: 'two amqp messages' },
      );
      await new Promise((r) => setTimeout(r, 500));
      expect((await messagesOf(tk, stream)).map(textOf)).to.deep.equal(['first', 'second']);
      expect(messages[0].content_type).to.equal('text/plain');
      const q = await channel.checkQueue(queue);
      expect(q.messageCount).to.equal(0);
    } finally {
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    }
  });

  it('nats.subscribe: messages on the subject are in the stream', async () => {
    const stream = unique('nats-in');
    const subject = `rt.test.${unique('s').replace(/-/g, '_')}`;
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('nats-src'),
      type: 'nats.subscribe',
      stream,
      config: { url: 'nats://127.0.0.1:4222', subject },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    const h = natsHeaders();
    h.set('Nats-Msg-Id', 'n-1');
    nc.publish(subject, Buffer.from('hello'), { headers: h });
    nc.publish(subject, Buffer.from('world'));
    await nc.flush();
    await nc.close();
    const messages = await until(
      async () => {
        const found = await messagesOf(tk, stream);
        return found.length >= 2 ? found : undefined;
      },
      30_000,
      { what: 'two nats messages' },
    );
    expect(messages.map(textOf)).to.deep.equal(['hello', 'world']);
    expect(messages[0].headers).to.include({ 'nats-subject': subject, 'nats-msg-id': 'n-1' });
  });

  it('nats.subscribe with durable: a JetStream durable consumer; what arrived before the start is appended, and everything is acknowledged', async () => {
    const stream = unique('nats-durable');
    const token = unique('d').replace(/-/g, '_');
    const subject = `rt.durable.${token}`;
    const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: `RTTEST_${token}`, subjects: [subject] });
    try {
      await makeStream(tk, stream);
      const c = await makeComponent(tk, {
        name: unique('nats-durable'),
        type: 'nats.subscribe',
        stream,
        config: { url: 'nats://127.0.0.1:4222', subject, durable: `rt_${token}` },
      });
      const js = nc.jetstream();
      await js.publish(subject, Buffer.from('before start')); // kept by JetStream until the consumer reads it
      await start(tk, c.id);
      await waitForState(tk, c.id, 'running');
      await js.publish(subject, Buffer.from('while running'));
      const messages = await until(
        async () => {
          const found = await messagesOf(tk, stream);
          return found.length >= 2 ? found : undefined;
        },
        30_000,
        { what: 'both durable messages' },
      );
      expect(messages.map(textOf)).to.deep.equal(['before start', 'while running']);
      await until(
        async () =>
          (await jsm.consumers.info(`RTTEST_${token}`, `rt_${token}`)).num_ack_pending === 0 &&
          (await jsm.consumers.info(`RTTEST_${token}`, `rt_${token}`)).num_pending === 0,
        30_000,
        { what: 'acknowledged' },
      );
    } finally {
      await jsm.streams.delete(`RTTEST_${token}`).catch(() => undefined);
      await nc.close();
    }
  });

  it('stop really stops a source: messages published while stopped are not appended until it starts again', async () => {
    const stream = unique('nats-stop');
    const subject = `rt.test.${unique('s').replace(/-/g, '_')}`;
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('nats-stop'),
      type: 'nats.subscribe',
      stream,
      config: { url: 'nats://127.0.0.1:4222', subject },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const stopped = await tk.request('POST', `/components/${c.id}/stop`, { body: {} });
    expect(stopped.body.component).to.include({ state: 'stopped', desired_state: 'stopped' });
    const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    // The subscription is gone once the source stopped: NATS reports no interest in the subject.
    await until(
      async () => {
        try {
          await nc.request(subject, Buffer.from('anyone?'), { timeout: 300 });
          return false;
        } catch (err) {
          return String((err as Error).message).includes('503') || (err as { code?: string }).code === '503';
        }
      },
      30_000,
      { what: 'no subscriber on the subject' },
    );
    nc.publish(subject, Buffer.from('while stopped'));
    await nc.flush();
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    await until(
      async () => {
        nc.publish(subject, Buffer.from('after start'));
        await nc.flush();
        return (await messagesOf(tk, stream)).length > 0;
      },
      30_000,
      { what: 'subscriber back' },
    );
    await nc.close();
    expect((await messagesOf(tk, stream)).map(textOf)).to.not.include('while stopped');
  });

  it('a source whose broker cannot be reached is failed with last_error and still wanted running (the runtime keeps retrying it)', async () => {
    const stream = unique('dead');
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('dead-src'),
      type: 'nats.subscribe',
      stream,
      config: { url: 'nats://127.0.0.1:1', subject: 'x' },
    });
    await start(tk, c.id);
    const failed = await waitForState(tk, c.id, 'failed');
    expect(failed.last_error).to.be.a('string').and.not.equal('');
    const row = await tk.kernel.database.knex('components').where({ tenant_id: 'default', id: c.id }).first();
    expect(row.desired_state).to.equal('running');
    expect(row.last_error).to.equal(failed.last_error);
  });
});
