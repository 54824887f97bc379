import { createServer, type IncomingMessage, type Server } from 'node:http';
import { expect } from 'chai';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { connect } from 'nats';
import type { ComponentType, RuntimeMessage, StepContext } from '../../../plugins/components/contract.js';
import type { ConnectorsSettings } from '../../../plugins/connectors/settings.js';
import { amqpPublishType, mqttPublishType, natsPublishType } from '../../../plugins/connectors/sinks/broker-publish.js';
import { classify, resolvePublic } from '../../../plugins/connectors/sinks/address-guard.js';
import { httpRequestType } from '../../../plugins/connectors/sinks/http-request.js';
import type { TestKernel } from '../../support/kernel.js';
import { runtimeKernel, unique } from './helpers.js';
import { until } from '../../support/poll.js';

const settings = (allow: ConnectorsSettings['http']['allow'] = []): ConnectorsSettings => ({
  http: { allow, default_timeout_ms: 2000, max_timeout_ms: 5000, max_response_bytes: 1024 },
  connect_timeout_ms: 3000,
});

const context = (): StepContext => ({
  tenantId: 'default',
  workflowId: 'wf',
  runId: 'run-1',
  log: () => undefined,
  signal: new AbortController().signal,
});

const message = (id: string, value: unknown): RuntimeMessage => ({ id, key: null, headers: {}, value });

async function sink(type: ComponentType, config: Record<string, unknown>) {
  const runtime = await type.create!(config, { tenantId: 'default', componentId: 'sink' });
  return runtime;
}

describe('connectors: sinks deliver to the real brokers with the message id as idempotency key', function () {
  this.timeout(120_000);

  describe('http.request', () => {
    let server: Server;
    let port = 0;
    const received: Array<{ headers: IncomingMessage['headers']; body: string; method: string }> = [];
    let answer: { status: number; body: string; delayMs?: number } = { status: 204, body: '' };
    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            method: req.method ?? '',
          });
          setTimeout(() => {
            res.statusCode = answer.status;
            res.end(answer.body);
          }, answer.delayMs ?? 0);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      port = (server.address() as { port: number }).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('posts the value as JSON with Idempotency-Key = the message id to a loopback receiver the settings allow', async () => {
      answer = { status: 204, body: '' };
      const runtime = await sink(httpRequestType(settings(['loopback'])), {
        url: `http://127.0.0.1:${port}/in`,
        headers: { 'x-extra': 'yes' },
        authorization: 'Bearer s3cret',
      });
      await runtime.deliver!(message('msg_http_1', { a: 1 }), context());
      const got = received.at(-1)!;
      expect(got.method).to.equal('POST');
      expect(got.body).to.equal('{"a":1}');
      expect(got.headers).to.include({
        'idempotency-key': 'msg_http_1',
        'x-message-id': 'msg_http_1',
        'content-type': 'application/json',
        'x-extra': 'yes',
        authorization: 'Bearer s3cret',
      });
    });

    it('fails a delivery on a non-2xx answer, a timeout and a response over the size cap', async () => {
      const runtime = await sink(httpRequestType(settings(['loopback'])), {
        url: `http://localhost:${port}/in`,
        timeout_ms: 300,
      });
      answer = { status: 500, body: 'no' };
      await expectRejection(runtime.deliver!(message('m2', 1), context()), /answered 500/);
      answer = { status: 200, body: 'x'.repeat(5000) };
      await expectRejection(runtime.deliver!(message('m3', 1), context()), /larger than 1024 bytes/);
      answer = { status: 200, body: '', delayMs: 1500 };
      await expectRejection(runtime.deliver!(message('m4', 1), context()), /within 300 ms/);
    });

    it('refuses loopback, private and link-local addresses by default, after resolving the name', async () => {
      const runtime = await sink(httpRequestType(settings()), { url: `http://127.0.0.1:${port}/in` });
      const before = received.length;
      await expectRejection(runtime.deliver!(message('m5', 1), context()), /loopback address/);
      const byName = await sink(httpRequestType(settings()), { url: `http://localhost:${port}/in` });
      await expectRejection(byName.deliver!(message('m6', 1), context()), /refused: localhost resolves to/);
      expect(received.length).to.equal(before);
      for (const [address, kind] of [
        ['10.1.2.3', 'private'],
        ['192.168.0.1', 'private'],
        ['172.20.0.1', 'private'],
        ['169.254.169.254', 'link-local'],
        ['::1', 'loopback'],
        ['fe80::1', 'link-local'],
        ['fd00::1', 'private'],
        ['::ffff:127.0.0.1', 'loopback'],
        ['0.0.0.0', 'reserved'],
      ] as const) {
        expect(classify(address), address).to.equal(kind);
        await expectRejection(resolvePublic(address, []), new RegExp(`a ${kind} address`));
      }
      expect(classify('93.184.216.34')).to.equal(null);
      // Allowing loopback does not allow private addresses.
      await expectRejection(resolvePublic('10.0.0.1', ['loopback']), /private/);
    });
  });

  it('mqtt.publish: a subscriber gets the message with the user property message-id', async () => {
    const topic = `rt-test/${unique('pub')}`;
    const subscriber = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { protocolVersion: 5 });
    const got: Array<{ payload: string; properties: any }> = [];
    subscriber.on('message', (_t, payload, packet) =>
      got.push({ payload: payload.toString(), properties: packet.properties }),
    );
    await subscriber.subscribeAsync(topic, { qos: 1 });
    const runtime = await sink(mqttPublishType(settings()), { url: 'mqtt://127.0.0.1:1883', topic });
    await runtime.deliver!(message('msg_mqtt_1', { hello: 'mqtt' }), context());
    await until(async () => got.length > 0, 30_000, { what: 'the mqtt message' });
    await runtime.stop!();
    await subscriber.endAsync();
    expect(got[0]!.payload).to.equal('{"hello":"mqtt"}');
    expect(got[0]!.properties.userProperties).to.deep.include({ 'message-id': 'msg_mqtt_1' });
  });

  it('amqp.publish: a message no queue takes fails the delivery (mandatory by default) instead of vanishing; mandatory: false lets it go', async () => {
    const queue = unique('rt-nobody');
    const runtime = await sink(amqpPublishType(settings()), {
      url: 'amqp://guest:guest@127.0.0.1:5672',
      exchange: '',
      routing_key: queue,
    });
    const lenient = await sink(amqpPublishType(settings()), {
      url: 'amqp://guest:guest@127.0.0.1:5672',
      exchange: '',
      routing_key: queue,
      mandatory: false,
    });
    try {
      let failure: Error | undefined;
      await runtime.deliver!(message('msg_amqp_unroutable', { lost: true }), context()).catch(
        (err: Error) => (failure = err),
      );
      expect(failure?.message).to.match(/routed the message to no queue/);
      await lenient.deliver!(message('msg_amqp_dropped', { lost: true }), context());
      // The same runtime still delivers once a queue takes it.
      const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
      const channel = await connection.createChannel();
      await channel.assertQueue(queue, { durable: false });
      try {
        await runtime.deliver!(message('msg_amqp_routed', { lost: false }), context());
        const got = await channel.get(queue, { noAck: true });
        expect(got === false ? undefined : got.properties.messageId).to.equal('msg_amqp_routed');
      } finally {
        await channel.deleteQueue(queue).catch(() => undefined);
        await connection.close();
      }
    } finally {
      await runtime.stop!();
      await lenient.stop!();
    }
  });

  it('amqp.publish: the queue gets the message with message-id = the message id, confirmed', async () => {
    const queue = unique('rt-pub');
    const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    await channel.assertQueue(queue, { durable: false });
    try {
      const runtime = await sink(amqpPublishType(settings()), {
        url: 'amqp://guest:guest@127.0.0.1:5672',
        exchange: '',
        routing_key: queue,
      });
      await runtime.deliver!(message('msg_amqp_1', { hello: 'amqp' }), context());
      await runtime.stop!();
      const got = await channel.get(queue, { noAck: true });
      expect(got).to.not.equal(false);
      if (got === false) return;
      expect(got.content.toString()).to.equal('{"hello":"amqp"}');
      expect(got.properties.messageId).to.equal('msg_amqp_1');
      expect(got.properties.headers).to.include({ 'idempotency-key': 'msg_amqp_1' });
    } finally {
      await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    }
  });

  it('nats.publish: a subscriber gets the message with Nats-Msg-Id = the message id', async () => {
    const subject = `rt.test.${unique('pub').replace(/-/g, '_')}`;
    const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
    const sub = nc.subscribe(subject, { max: 1 });
    const runtime = await sink(natsPublishType(settings()), { url: 'nats://127.0.0.1:4222', subject });
    await runtime.deliver!(message('msg_nats_1', { hello: 'nats' }), context());
    for await (const m of sub) {
      expect(Buffer.from(m.data).toString()).to.equal('{"hello":"nats"}');
      expect(m.headers?.get('Nats-Msg-Id')).to.equal('msg_nats_1');
    }
    await runtime.stop!();
    await nc.close();
  });

  describe('as components through the API', () => {
    let tk: TestKernel;
    before(async () => {
      tk = await runtimeKernel();
    });
    after(() => tk?.close());

    it('a sink takes no stream, and its secret header value is write-only', async () => {
      const withStream = await tk.request('POST', '/components', {
        body: { name: 'bad sink', type: 'http.request', stream: 'x', config: { url: 'http://example.test/' } },
      });
      expect(withStream.status).to.equal(400);
      expect(withStream.body.error.details[0].pointer).to.equal('/stream');
      const res = await tk.request('POST', '/components', {
        body: {
          name: 'hook out',
          type: 'http.request',
          config: { url: 'https://example.test/in', authorization: 'Bearer top-secret-value' },
        },
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.config).to.deep.equal({ url: 'https://example.test/in', method: 'POST' });
      expect(res.body.secrets_set).to.deep.equal(['authorization']);
      expect(res.text).to.not.contain('top-secret-value');
      const bad = await tk.request('POST', '/components', {
        body: { name: 'bad url', type: 'http.request', config: { url: 'ftp://example.test/' } },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details.map((d: any) => d.pointer)).to.include('/config/url');
    });
  });
});

async function expectRejection(work: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await work;
  } catch (err) {
    expect((err as Error).message).to.match(pattern);
    return;
  }
  throw new Error(`expected a rejection matching ${pattern}`);
}
