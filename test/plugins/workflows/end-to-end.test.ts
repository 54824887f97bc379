import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { encode } from '../codecs/http.js';
import { makeComponent, start, unique, waitForState } from '../connectors/helpers.js';
import { Relay } from '../connectors/relay.js';
import { createStream, deploy, readAll } from './support.js';
import { until } from '../../support/poll.js';

/**
 * Acceptance, through the API only: real brokers (Mosquitto 127.0.0.1:1883, RabbitMQ
 * 127.0.0.1:5672), sources started as components, workflows deployed, and what comes out checked
 * in the streams, at the brokers and receivers, in each message's deliveries and in the runs.
 */
const RUNTIME_PLUGINS = ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'connectors', 'workflows'];

export function runtimeKernel(): Promise<TestKernel> {
  return startKernel({
    plugins: RUNTIME_PLUGINS,
    auth: { mode: 'none' },
    jobs: { lease_ms: 3000 },
    settings: {
      workflows: { poll_ms: 50, lease_ms: 3000 },
      components: { supervisor_interval_ms: 200 },
      connectors: { http: { allow: ['loopback'] }, connect_timeout_ms: 2000 },
    },
  });
}

async function createWorkflow(tk: TestKernel, body: Record<string, unknown>): Promise<void> {
  const res = await tk.request('POST', '/workflows', { body });
  expect(res.status, res.text).to.equal(201);
}

/** Each input's deliveries as [workflow, status, attempt]: exactly one successful attempt is what "once" means here. */
async function deliveriesOf(tk: TestKernel, messageId: string): Promise<Array<[string, string, number]>> {
  const res = await tk.request('GET', `/messages/${messageId}`);
  expect(res.status, res.text).to.equal(200);
  return res.body.deliveries.map((d: any) => [d.workflow, d.status, d.attempt]);
}

/** Every input has exactly one output (by x-workflow-source) and one processed delivery, on the first attempt. */
async function expectOnceEach(tk: TestKernel, workflow: string, inputs: any[], outputs: any[]): Promise<void> {
  const sources = outputs.map((m) => m.headers['x-workflow-source']);
  expect(new Set(sources).size, 'one output per input').to.equal(sources.length);
  expect(new Set(sources)).to.deep.equal(new Set(inputs.map((m) => m.id)));
  for (const input of inputs)
    expect(await deliveriesOf(tk, input.id), input.id).to.deep.equal([[workflow, 'processed', 1]]);
}

describe('workflows end to end: real brokers, through the API', function () {
  this.timeout(180_000);
  let tk: TestKernel;
  before(async () => {
    tk = await runtimeKernel();
  });
  after(() => tk?.close());

  it('MQTT publish → mqtt.subscribe → stream → codec.decode (avro) → script → stream.publish and amqp.publish', async () => {
    const codec = await tk.request('POST', '/codecs', {
      body: {
        name: unique('e2e-order'),
        kind: 'avro',
        schema: {
          type: 'record',
          name: 'Order',
          fields: [
            { name: 'id', type: 'string' },
            { name: 'amount', type: 'int' },
          ],
        },
      },
    });
    expect(codec.status, codec.text).to.equal(201);
    const [input, output] = [unique('e2e-mqtt-in'), unique('e2e-mqtt-out')];
    await createStream(tk, input);
    await createStream(tk, output);
    const topic = `rt-test/${unique('e2e')}`;
    const queue = unique('e2e-orders');

    const broker = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await broker.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: true });
    const received: Array<{ id: string; body: any; idempotencyKey: unknown }> = [];
    await channel.consume(queue, (m) => {
      if (!m) return;
      received.push({
        id: String(m.properties.messageId),
        body: JSON.parse(m.content.toString('utf8')),
        idempotencyKey: m.properties.headers?.['idempotency-key'],
      });
      channel.ack(m);
    });

    try {
      const source = await makeComponent(tk, {
        name: unique('e2e-mqtt-src'),
        type: 'mqtt.subscribe',
        stream: input,
        config: { url: 'mqtt://127.0.0.1:1883', topic, qos: 1, client_id: unique('rt-e2e') },
      });
      const sink = await makeComponent(tk, {
        name: unique('e2e-amqp-sink'),
        type: 'amqp.publish',
        config: { url: 'amqp://guest:guest@127.0.0.1:5672', exchange: '', routing_key: queue },
      });
      await start(tk, source.id);
      await waitForState(tk, source.id, 'running');
      await createWorkflow(tk, {
        id: 'mqtt-orders',
        name: 'MQTT orders',
        input: { component: source.id },
        steps: [
          { type: 'codec.decode', config: { codec: codec.body.id } },
          {
            type: 'script',
            config: {
              source:
                'const v = service.json.decode(input.body); service.route.push({ order: v.id, cents: v.amount, euros: v.amount / 100, topic: input.headers["mqtt-topic"] ?? null });',
            },
          },
        ],
        sinks: [{ type: 'stream.publish', config: { stream: output } }, { component: sink.id }],
        on_error: { max_attempts: 3, backoff_ms: 100 },
      });
      expect(await deploy(tk, 'mqtt-orders', unique('deploy'))).to.include({ state: 'running', deployed_revision: 1 });

      const orders = Array.from({ length: 5 }, (_, i) => ({ id: `o-${i}`, amount: 1000 + i * 250 }));
      const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
      for (const order of orders) {
        const bytes = await encode(tk, codec.body.id, order);
        expect(bytes.status).to.equal(200);
        await publisher.publishAsync(topic, bytes.bytes, { qos: 1 });
      }
      await publisher.endAsync();

      const outputs = await until(
        async () => {
          const found = await readAll(tk, output);
          return found.length >= 5 && found;
        },
        30_000,
        { what: 'five outputs' },
      );
      expect(outputs.map((m: any) => m.value).sort((a: any, b: any) => a.order.localeCompare(b.order))).to.deep.equal(
        orders.map((o) => ({ order: o.id, cents: o.amount, euros: o.amount / 100, topic })),
      );
      const inputs = await readAll(tk, input);
      expect(inputs).to.have.length(5);
      await expectOnceEach(tk, 'mqtt-orders', inputs, outputs);

      // The AMQP sink delivered the same values, each output with an id of its own as message-id and idempotency key.
      await until(async () => received.length >= 5, 30_000, { what: 'five AMQP deliveries' });
      expect(received).to.have.length(5);
      expect(new Set(received.map((r) => r.id)).size).to.equal(5);
      for (const r of received) expect(r.id).to.match(/^out_[0-9a-f]{32}$/);
      for (const r of received) expect(r.idempotencyKey).to.equal(r.id);
      expect(received.map((r) => r.body.order).sort()).to.deep.equal(orders.map((o) => o.id));

      const runs = await tk.request('GET', '/workflows/mqtt-orders/runs?status=processed');
      expect(runs.status, runs.text).to.equal(200);
      expect(runs.body.items).to.have.length(5);
      expect(new Set(runs.body.items.map((r: any) => r.message_id))).to.deep.equal(
        new Set(inputs.map((m: any) => m.id)),
      );
      for (const run of runs.body.items)
        expect(run).to.include({ workflow: 'mqtt-orders', revision: 1, status: 'processed', attempts: 1 });
    } finally {
      await broker.close();
    }
  });

  it('a webhook → stream → workflow → http.request to a loopback receiver (allowed in the test config)', async () => {
    const hits: Array<{ body: any; headers: IncomingHttpHeaders }> = [];
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const stream = unique('e2e-hooks');
      await createStream(tk, stream);
      const hook = await makeComponent(tk, { name: unique('e2e-hook'), type: 'webhook', stream });
      await start(tk, hook.id);
      await waitForState(tk, hook.id, 'running');
      // The sink is a component: its secret (x-secret) is write-only in the API and reaches the worker decrypted.
      const forward = await makeComponent(tk, {
        name: unique('e2e-forward'),
        type: 'http.request',
        config: {
          url: `http://127.0.0.1:${port}/receive`,
          headers: { 'x-test': 'e2e' },
          authorization: 'Bearer e2e-receiver-token',
        },
      });
      expect((await tk.request('GET', `/components/${forward.id}`)).text).to.not.contain('e2e-receiver-token');
      await createWorkflow(tk, {
        id: 'hook-forward',
        name: 'Forward hooks',
        input: { stream },
        steps: [
          {
            type: 'script',
            config: {
              source: 'const v = service.json.decode(input.body); service.route.push({ forwarded: v.event, n: v.n });',
            },
          },
        ],
        sinks: [{ component: forward.id }],
      });
      await deploy(tk, 'hook-forward', unique('deploy'));

      const secret = hook.shown_once.secrets.secret as string;
      for (let n = 0; n < 3; n++) {
        const body = JSON.stringify({ event: 'paid', n });
        const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
        const res = await tk.request('POST', hook.shown_once.path, {
          raw: body,
          headers: { 'content-type': 'application/json', 'x-signature-256': signature },
        });
        expect(res.status, res.text).to.equal(202);
      }
      await until(async () => hits.length >= 3, 30_000, { what: 'three requests at the receiver' });
      expect(hits.map((h) => h.body).sort((a, b) => a.n - b.n)).to.deep.equal(
        [0, 1, 2].map((n) => ({ forwarded: 'paid', n })),
      );
      const inputs = await readAll(tk, stream);
      // Each output's own id, as the idempotency key and the message id.
      expect(new Set(hits.map((h) => h.headers['idempotency-key'])).size).to.equal(inputs.length);
      for (const h of hits) expect(h.headers['x-message-id']).to.equal(h.headers['idempotency-key']);
      for (const h of hits)
        expect([h.headers['x-test'], h.headers.authorization]).to.deep.equal(['e2e', 'Bearer e2e-receiver-token']);
      for (const input of inputs) {
        expect(
          await until(async () => (await deliveriesOf(tk, input.id)).length > 0 && deliveriesOf(tk, input.id), 30_000, {
            what: 'the delivery recorded',
          }),
        ).to.deep.equal([['hook-forward', 'processed', 1]]);
      }
      const runs = await tk.request('GET', '/workflows/hook-forward/runs');
      expect(runs.body.items.map((r: any) => r.status)).to.deep.equal(['processed', 'processed', 'processed']);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("checks an inline step config's formats as the components plugin does: a url that is no URI is a 400 naming it, not a failure at run time", async () => {
    const stream = unique('e2e-format');
    await createStream(tk, stream);
    const res = await tk.request('POST', '/workflows', {
      body: {
        id: 'bad-url',
        name: 'bad',
        input: { stream },
        sinks: [{ type: 'http.request', config: { url: 'http://exa mple.com/' } }],
      },
    });
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error.details[0].pointer).to.equal('/sinks/0/config/url');
    expect((await tk.request('GET', '/workflows/bad-url')).status).to.equal(404);
  });

  it('a timer → stream → workflow: every tick processed once', async () => {
    const [ticks, out] = [unique('e2e-ticks'), unique('e2e-tick-out')];
    await createStream(tk, ticks);
    await createStream(tk, out);
    const timer = await makeComponent(tk, {
      name: unique('e2e-timer'),
      type: 'timer',
      stream: ticks,
      config: { every_seconds: 1, payload: { job: 'cleanup' } },
    });
    await createWorkflow(tk, {
      id: 'ticking',
      name: 'Ticking',
      input: { component: timer.id },
      steps: [
        {
          type: 'script',
          config: {
            source:
              'const v = service.json.decode(input.body); service.route.push({ ran: v.job, at: input.headers["x-tick-at"] });',
          },
        },
      ],
      sinks: [{ type: 'stream.publish', config: { stream: out } }],
    });
    await deploy(tk, 'ticking', unique('deploy'));
    await start(tk, timer.id);
    await waitForState(tk, timer.id, 'running');
    await until(async () => (await readAll(tk, out)).length >= 3, 30_000, { what: 'three ticks through the workflow' });
    expect((await tk.request('POST', `/components/${timer.id}/stop`, { body: {} })).status).to.equal(200);
    await waitForState(tk, timer.id, 'stopped');
    const { inputs, outputs } = await until(
      async () => {
        const [found, ticked] = [await readAll(tk, out), await readAll(tk, ticks)];
        return found.length === ticked.length && { inputs: ticked, outputs: found };
      },
      30_000,
      { what: 'every tick processed' },
    );
    expect(inputs.length).to.be.at.least(3);
    for (const m of outputs) expect(m.value.ran).to.equal('cleanup');
    expect(new Set(outputs.map((m: any) => m.value.at)).size, 'one tick per period').to.equal(inputs.length);
    await expectOnceEach(tk, 'ticking', inputs, outputs);
  });
});

describe('workflows end to end: an MQTT broker outage while a workflow consumes', function () {
  this.timeout(180_000);
  let tk: TestKernel;
  const relay = new Relay();
  before(async () => {
    tk = await runtimeKernel();
    await relay.open();
  });
  after(async () => {
    await relay.cut();
    await tk?.close();
  });

  it('turns the source failed with last_error, running again by itself, and every acknowledged message comes out once', async () => {
    const [input, output] = [unique('e2e-outage-in'), unique('e2e-outage-out')];
    await createStream(tk, input);
    await createStream(tk, output);
    const topic = `rt-test/${unique('e2e-outage')}`;
    const source = await makeComponent(tk, {
      name: unique('e2e-outage-src'),
      type: 'mqtt.subscribe',
      stream: input,
      config: { url: `mqtt://127.0.0.1:${relay.port}`, topic, qos: 1, client_id: unique('rt-e2e-outage') },
    });
    await start(tk, source.id);
    await waitForState(tk, source.id, 'running');
    await createWorkflow(tk, {
      id: 'outage',
      name: 'Through an outage',
      input: { component: source.id },
      steps: [{ type: 'script', config: { source: 'service.route.push({ text: service.json.decode(input.body) })' } }],
      sinks: [{ type: 'stream.publish', config: { stream: output } }],
    });
    await deploy(tk, 'outage', unique('deploy'));

    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    const publish = async (texts: string[]) => {
      for (const text of texts) await publisher.publishAsync(topic, JSON.stringify(text), { qos: 1 }); // resolved = acknowledged by the broker
    };
    try {
      await publish(['before-1', 'before-2']);
      await until(async () => (await readAll(tk, output)).length >= 2, 30_000, {
        what: 'the messages before the outage, processed',
      });

      await relay.cut();
      const failed = await waitForState(tk, source.id, 'failed');
      expect(failed.last_error)
        .to.be.a('string')
        .and.to.match(/MQTT broker|ECONNREFUSED/);
      await publish(['during-1', 'during-2', 'during-3']); // kept by the broker in the source's session

      await relay.open();
      const back = await waitForState(tk, source.id, 'running', 60_000);
      expect(back.last_error).to.equal(null);
      await publish(['after-1']);

      const expected = ['before-1', 'before-2', 'during-1', 'during-2', 'during-3', 'after-1'];
      const outputs = await until(
        async () => {
          const found = await readAll(tk, output);
          return found.length >= expected.length && found;
        },
        60_000,
        { what: 'every acknowledged message through the workflow' },
      );
      const texts = (m: any) => m.value.text as string;
      // MQTT QoS 1 is at-least-once: a message appended whose PUBACK the cut swallowed may come again
      // as a second input, so this asserts no loss (every text), and each input processed once.
      expect(new Set(outputs.map(texts))).to.deep.equal(new Set(expected));
      const inputs = await readAll(tk, input);
      expect(
        new Set(
          inputs.map((m: any) =>
            JSON.parse(Buffer.from(m.body_base64 ?? '', 'base64').toString('utf8') || JSON.stringify(m.value)),
          ),
        ),
      ).to.deep.equal(new Set(expected));
      await expectOnceEach(tk, 'outage', inputs, outputs);
    } finally {
      await publisher.endAsync();
    }
  });
});
