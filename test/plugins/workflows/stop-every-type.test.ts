import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import amqp from 'amqplib';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { unique } from '../connectors/helpers.js';
import { until } from '../../support/poll.js';
import { createStream, deploy, publish } from './support.js';

/**
 * Generated over every component type the enabled plugins register (`GET /component-types`):
 * a workflow that uses a stopped processor or sink processes nothing (no delivery attempted, the
 * message pending), and once the component is started again the message goes through once.
 * Sources do not apply (a stopped source receives nothing: there is no workflow message to hold);
 * they are listed as skipped. A type registered without a sample config below fails the test, so
 * a new type cannot slip past it.
 */
const SAMPLE: Record<string, (ctx: { stream: string; codec: string; port: number; queue: string }) => object> = {
  passthrough: () => ({}),
  script: () => ({ source: 'service.route.push({ scripted: true });' }),
  filter: () => ({ source: 'result = true;' }),
  map: () => ({ source: 'result = { mapped: true };' }),
  'json.transform': () => ({ set: { transformed: true } }),
  'codec.decode': ({ codec }) => ({ codec }),
  'codec.encode': ({ codec }) => ({ codec }),
  'stream.publish': ({ stream }) => ({ stream }),
  log: () => ({ level: 'info' }),
  'http.request': ({ port }) => ({ url: `http://127.0.0.1:${port}/hook` }),
  'mqtt.publish': () => ({ url: 'mqtt://127.0.0.1:1883', topic: `rt-test/${unique('stop-every')}` }),
  'amqp.publish': ({ queue }) => ({ url: 'amqp://guest:guest@127.0.0.1:5672', exchange: '', routing_key: queue }),
  'nats.publish': () => ({ url: 'nats://127.0.0.1:4222', subject: unique('stop-every') }),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stop means stop, for every component type', function () {
  this.timeout(180_000);
  let tk: TestKernel;
  let receiver: Server;
  before(async () => {
    tk = await startKernel({
      ...(process.env.DEBUG_STOP ? { log: { level: 'error' } } : {}),
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'connectors', 'workflows', 'studio'],
      auth: { mode: 'none' },
      jobs: { lease_ms: 3000 },
      settings: {
        workflows: { poll_ms: 50, lease_ms: 3000 },
        components: { supervisor_interval_ms: 200 },
        connectors: { http: { allow: ['loopback'] }, connect_timeout_ms: 10_000 }, // a busy machine connects slowly
      },
    });
    receiver = createServer((req, res) => req.resume().on('end', () => res.end()));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  });
  after(async () => {
    receiver?.close();
    await tk?.close();
  });

  it('a stopped processor or sink holds the message; started, the message goes through once', async () => {
    const types = (await tk.request('GET', '/component-types')).body.items as Array<{ name: string; kind: string }>;
    const skipped = types.filter((t) => t.kind === 'source').map((t) => t.name);
    const tested = types.filter((t) => t.kind !== 'source');
    console.log(`      sources skipped (nothing to hold): ${skipped.join(', ')}`);
    expect(
      tested.filter((t) => !SAMPLE[t.name]).map((t) => t.name),
      'types without a sample config here',
    ).to.deep.equal([]);

    const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    const codec = await tk.request('POST', '/codecs', { body: { name: unique('stop-json'), kind: 'json' } });
    expect(codec.status, codec.text).to.equal(201);
    const ctx = {
      stream: unique('stop-sink-out'),
      codec: codec.body.id as string,
      port: (receiver.address() as { port: number }).port,
      queue,
    };
    await createStream(tk, ctx.stream);

    try {
      // One workflow per type, all held at once.
      const cases: Array<{ type: string; component: string; workflow: string; input: string; message?: string }> = [];
      for (const type of tested) {
        const component = await tk.request('POST', '/components', {
          body: {
            name: unique(`stop-${type.name.replace('.', '-')}`),
            type: type.name,
            config: SAMPLE[type.name]?.(ctx),
          },
        });
        expect(component.status, `${type.name}: ${component.text}`).to.equal(201);
        expect(component.body.state, `${type.name} is usable once made`).to.equal('running');
        const input = unique('stop-in');
        await createStream(tk, input);
        const workflow = unique('stop-wf');
        const ref = { component: component.body.id };
        const res = await tk.request('POST', '/workflows', {
          body: {
            id: workflow,
            name: workflow,
            input: { stream: input },
            steps: type.kind === 'processor' ? [ref] : [],
            sinks: type.kind === 'processor' ? [{ type: 'log', config: {} }] : [ref],
          },
        });
        expect(res.status, `${type.name}: ${res.text}`).to.equal(201);
        await deploy(tk, workflow, unique('deploy'));
        const stop = await tk.request('POST', `/components/${component.body.id}/stop`, { body: {} });
        expect(stop.status, stop.text).to.equal(200);
        cases.push({ type: type.name, component: component.body.id, workflow, input });
      }
      for (const c of cases) [c.message] = await publish(tk, c.input, [{ value: { n: 1 } }]);
      await sleep(1500);
      for (const c of cases) {
        const message = await tk.request('GET', `/messages/${c.message}`);
        expect(message.body.deliveries, `${c.type} stopped: nothing attempted`).to.deep.equal([]);
        const workflow = await tk.request('GET', `/workflows/${c.workflow}`);
        expect(workflow.body.waiting?.components, `${c.type} stopped: the workflow says why it waits`).to.deep.equal([
          c.component,
        ]);
      }
      for (const c of cases) {
        const start = await tk.request('POST', `/components/${c.component}/start`, { body: {} });
        expect(start.status, start.text).to.equal(200);
      }
      for (const c of cases) {
        const deliveries = await until(
          async () => {
            const d = (await tk.request('GET', `/messages/${c.message}`)).body.deliveries;
            return d.length > 0 && d;
          },
          30_000,
          { what: `${c.type} started: the message went through` },
        );
        await sleep(100);
        expect(
          (await tk.request('GET', `/messages/${c.message}`)).body.deliveries.map((d: any) => [d.status, d.attempt]),
          `${c.type} started: delivered once (${JSON.stringify(deliveries)})`,
        ).to.deep.equal([['processed', 1]]);
      }
    } finally {
      await connection.close();
    }
  });
});
