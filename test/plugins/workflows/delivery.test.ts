import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { makeComponent, unique } from '../connectors/helpers.js';
import { serviceXml } from '../bpmn/fixtures.js';
import { Relay } from '../connectors/relay.js';
import { until } from '../../support/poll.js';
import { createStream, deploy, publish } from './support.js';

/**
 * What a user may rely on about delivery (docs/guides/delivery-guarantees.md), through the API
 * and real brokers: a redrive replays each dead message once; every output has its own id, kept
 * by a retry; a stopped component holds its workflow's messages until it runs again; a run that
 * pushed nothing is `filtered`.
 */
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

function kernel(): Promise<TestKernel> {
  return startKernel({
    plugins: [
      'system',
      'audit',
      'logs',
      'components',
      'codecs',
      'streams',
      'connectors',
      'workflows',
      'dashboard',
      'studio',
      'alerts',
      'bpmn',
    ],
    auth: { mode: 'none' },
    jobs: { lease_ms: 3000 },
    settings: {
      workflows: { poll_ms: 50, lease_ms: 3000 },
      components: { supervisor_interval_ms: 200 },
      connectors: { http: { allow: ['loopback'] }, connect_timeout_ms: 2000 },
      alerts: { evaluation_interval_ms: 200 },
    },
  });
}

/** A server-named queue at the real RabbitMQ and everything it receives. */
async function rabbitQueue(): Promise<{ queue: string; got: ConsumeMessage[]; close(): Promise<void> }> {
  const connection: ChannelModel = await amqp.connect(AMQP_URL);
  const channel: Channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  const got: ConsumeMessage[] = [];
  await channel.consume(queue, (m) => m && got.push(m), { noAck: true });
  return { queue, got, close: () => connection.close() };
}

async function createWorkflow(tk: TestKernel, body: Record<string, unknown>): Promise<void> {
  const res = await tk.request('POST', '/workflows', { body });
  expect(res.status, res.text).to.equal(201);
}

async function deliveriesOf(tk: TestKernel, messageId: string): Promise<Array<[string, number]>> {
  const res = await tk.request('GET', `/messages/${messageId}`);
  expect(res.status, res.text).to.equal(200);
  return res.body.deliveries.map((d: any) => [d.status, d.attempt]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery guarantees: redrive once, an id per output, stop that stops, filtered runs', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await kernel();
  });
  after(() => tk?.close());

  it('three pushes reach a real RabbitMQ consumer with three distinct ids, and a retried run delivers them again under the same ids', async () => {
    const rabbit = await rabbitQueue();
    // A second sink that refuses the first call: the run fails after AMQP confirmed, and its retry delivers again.
    let calls = 0;
    const receiver: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls += 1;
        res.statusCode = calls === 1 ? 503 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const input = unique('ids-in');
      await createStream(tk, input);
      const id = unique('ids');
      await createWorkflow(tk, {
        id,
        name: id,
        input: { stream: input },
        steps: [
          {
            type: 'script',
            config: { source: 'for (const n of [1, 2, 3]) service.route.push({ n });' },
          },
        ],
        sinks: [
          { type: 'amqp.publish', config: { url: AMQP_URL, exchange: '', routing_key: rabbit.queue } },
          { type: 'http.request', config: { url: `http://127.0.0.1:${(receiver.address() as any).port}/hook` } },
        ],
        on_error: { max_attempts: 3, backoff_ms: 100 },
      });
      await deploy(tk, id, unique('deploy'));
      const [message] = await publish(tk, input, [{ value: { go: true } }]);

      await until(
        async () => {
          const d = await deliveriesOf(tk, message as string);
          return d.some(([status]) => status === 'processed') && d;
        },
        30_000,
        { what: 'the retry went through' },
      );
      expect(await deliveriesOf(tk, message as string)).to.deep.equal([
        ['failed', 1],
        ['processed', 2],
      ]);
      await until(async () => rabbit.got.length >= 6, 30_000, { what: 'both attempts at RabbitMQ' });
      const ids = rabbit.got.map((m) => m.properties.messageId as string);
      const first = ids.slice(0, 3);
      expect(new Set(first).size, 'three outputs, three ids').to.equal(3);
      expect(ids.slice(3), 'the retry carries the same ids, in the same order').to.deep.equal(first);
      for (const m of rabbit.got) expect(m.properties.headers?.['idempotency-key']).to.equal(m.properties.messageId);
      expect(rabbit.got.slice(0, 3).map((m) => JSON.parse(m.content.toString()))).to.deep.equal([
        { n: 1 },
        { n: 2 },
        { n: 3 },
      ]);
      // No input shares them: another message's outputs have ids of their own.
      const [other] = await publish(tk, input, [{ value: { go: 'again' } }]);
      await until(async () => (await deliveriesOf(tk, other as string)).some(([s]) => s === 'processed'), 30_000, {
        what: 'the second input processed',
      });
      await until(async () => rabbit.got.length >= 9, 30_000, { what: 'its outputs at RabbitMQ' });
      const next = rabbit.got.slice(6).map((m) => m.properties.messageId as string);
      expect(new Set([...first, ...next]).size).to.equal(6);
    } finally {
      await rabbit.close();
      receiver.close();
    }
  });

  it('a stopped amqp.publish sink delivers nothing, the workflow says it waits for it, and after start the held messages arrive once', async () => {
    const rabbit = await rabbitQueue();
    try {
      const input = unique('stop-in');
      await createStream(tk, input);
      const sink = await makeComponent(tk, {
        name: unique('stop-sink'),
        type: 'amqp.publish',
        config: { url: AMQP_URL, exchange: '', routing_key: rabbit.queue },
      });
      const id = unique('stop');
      await createWorkflow(tk, {
        id,
        name: id,
        input: { stream: input },
        steps: [],
        sinks: [{ component: sink.id }],
      });
      await deploy(tk, id, unique('deploy'));
      await publish(tk, input, [{ value: { n: 0 } }]);
      await until(
        async () => {
          return rabbit.got.length === 1;
        },
        30_000,
        { what: 'the first message delivered' },
      );
      expect((await tk.request('GET', `/workflows/${id}`)).body.waiting).to.equal(undefined);

      const stop = await tk.request('POST', `/components/${sink.id}/stop`, { body: {} });
      expect(stop.status, stop.text).to.equal(200);
      const held = await publish(
        tk,
        input,
        [1, 2, 3].map((n) => ({ value: { n } })),
      );
      await sleep(1500);
      expect(rabbit.got, 'nothing delivered while stopped').to.have.length(1);
      for (const m of held) expect(await deliveriesOf(tk, m), 'nothing attempted, nothing dropped').to.deep.equal([]);
      const workflow = await tk.request('GET', `/workflows/${id}`);
      expect(workflow.body.state).to.equal('running');
      expect(workflow.body.waiting).to.include({ reason: 'components_stopped' });
      expect(workflow.body.waiting.components).to.deep.equal([sink.id]);
      const consumers = await tk.request('GET', `/streams/${input}/consumers`);
      const lag = consumers.body.items
        .filter((c: any) => c.consumer === id)
        .reduce((n: number, c: any) => n + Number(c.lag), 0);
      expect(lag, 'the held messages show as lag').to.equal(3);
      const dashboard = await tk.request('GET', '/dashboard?window=5m');
      expect(dashboard.status, dashboard.text).to.equal(200);
      const row = dashboard.body.sections.workflows.find((w: any) => w.workflow === id);
      expect(row?.lag, 'the dashboard shows the held messages').to.equal(3);
      expect(dashboard.body.sections.components.by_state.stopped).to.be.greaterThan(0);

      const start = await tk.request('POST', `/components/${sink.id}/start`, { body: {} });
      expect(start.status, start.text).to.equal(200);
      await until(async () => rabbit.got.length >= 4, 30_000, { what: 'the held messages delivered' });
      await sleep(500);
      expect(rabbit.got.map((m) => JSON.parse(m.content.toString()).n)).to.deep.equal([0, 1, 2, 3]);
      for (const m of held) expect(await deliveriesOf(tk, m)).to.deep.equal([['processed', 1]]);
      expect((await tk.request('GET', `/workflows/${id}`)).body.waiting).to.equal(undefined);
    } finally {
      await rabbit.close();
    }
  });

  it('a run that pushed nothing is filtered, not processed', async () => {
    const [input, output] = [unique('filter-in'), unique('filter-out')];
    await createStream(tk, input);
    await createStream(tk, output);
    const id = unique('filtered');
    await createWorkflow(tk, {
      id,
      name: id,
      input: { stream: input },
      steps: [{ type: 'filter', config: { source: 'const v = service.json.decode(input.body); result = v.keep;' } }],
      sinks: [{ type: 'stream.publish', config: { stream: output } }],
    });
    await deploy(tk, id, unique('deploy'));
    const [dropped, kept] = await publish(tk, input, [{ value: { keep: false } }, { value: { keep: true } }]);
    await until(async () => (await deliveriesOf(tk, kept as string)).length === 1, 30_000, {
      what: 'both runs recorded',
    });
    expect(await deliveriesOf(tk, dropped as string)).to.deep.equal([['filtered', 1]]);
    expect(await deliveriesOf(tk, kept as string)).to.deep.equal([['processed', 1]]);
    const runs = await tk.request('GET', `/workflows/${id}/runs?status=filtered`);
    expect(runs.status, runs.text).to.equal(200);
    expect(runs.body.items.map((r: any) => [r.message_id, r.status, r.outputs])).to.deep.equal([
      [dropped, 'filtered', []],
    ]);
    const listed = await tk.request('GET', `/messages?workflow=${id}&status=filtered`);
    expect(listed.body.items.map((m: any) => m.id)).to.deep.equal([dropped]);
  });

  it('redriving twice replays each dead message once; it is then listed as redriven with its replay, and the dashboard agrees with the list', async () => {
    const input = unique('redrive-in');
    await createStream(tk, input);
    const id = unique('redrive');
    await createWorkflow(tk, {
      id,
      name: id,
      input: { stream: input },
      steps: [{ type: 'script', config: { source: 'throw new Error("poison");' } }],
      sinks: [{ type: 'log', config: {} }],
      on_error: { max_attempts: 1, backoff_ms: 10 },
    });
    await deploy(tk, id, unique('deploy'));
    const dead = await publish(tk, input, [{ value: 1 }, { value: 2 }]);
    const deadList = async () =>
      (await tk.request('GET', `/messages?workflow=${id}&status=dead`)).body.items.map((m: any) => m.id);
    await until(async () => (await deadList()).length === 2, 30_000, { what: 'both dead' });

    // Paused, so the replays do not die (and become dead letters of their own) between the two redrives.
    expect((await tk.request('POST', `/workflows/${id}/pause`, { body: {} })).status).to.equal(200);
    const first = await tk.request('POST', '/messages/redrive', {
      body: { workflow: id, status: 'dead', limit: 10, request_id: unique('r1') },
    });
    expect(first.status, first.text).to.equal(200);
    expect(first.body.replayed).to.equal(2);
    const second = await tk.request('POST', '/messages/redrive', {
      body: { workflow: id, status: 'dead', limit: 10, request_id: unique('r2') },
    });
    expect(second.status, second.text).to.equal(200);
    expect(second.body.replayed, 'nothing left to redrive the second time').to.equal(0);
    expect(await deadList()).to.deep.equal([]);
    // Resumed, the replays (still poison) die too, and only they are dead now.
    expect((await tk.request('POST', `/workflows/${id}/resume`, { body: {} })).status).to.equal(200);
    const replays = first.body.messages.map((m: any) => m.id);
    await until(async () => (await deadList()).length === 2, 30_000, { what: 'the replays dead' });
    expect(new Set(await deadList())).to.deep.equal(new Set(replays));

    const redriven = await tk.request('GET', `/messages?workflow=${id}&status=redriven`);
    expect(redriven.status, redriven.text).to.equal(200);
    expect(new Map(redriven.body.items.map((m: any) => [m.id, m.replays]))).to.deep.equal(
      new Map(first.body.messages.map((m: any) => [m.replay_of, [m.id]])),
    );
    for (const original of dead) {
      const replayCount = first.body.messages.filter((m: any) => m.replay_of === original).length;
      expect(replayCount, `${original} replayed once`).to.equal(1);
    }
    const dashboard = await tk.request('GET', '/dashboard?window=5m');
    expect(dashboard.body.sections.workflows.find((w: any) => w.workflow === id)?.dead_letters).to.equal(
      (await deadList()).length,
    );
  });

  it('a script, filter or map that does not compile is refused when saved (400 naming the step and the line), inline or in a workspace, and again at deploy', async () => {
    const [input, output] = [unique('check-in'), unique('check-out')];
    await createStream(tk, input);
    await createStream(tk, output);
    const body = (steps: unknown[]) => ({
      name: unique('check'),
      input: { stream: input },
      steps,
      sinks: [{ type: 'stream.publish', config: { stream: output } }],
    });
    const refused = async (steps: unknown[]) => {
      const res = await tk.request('POST', '/workflows', { body: body(steps) });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
      return res.body.error.details[0] as { pointer: string; message: string };
    };
    const inline = await refused([{ type: 'script', config: { source: 'this is not js (' } }]);
    expect(inline.pointer).to.equal('/steps/0/config/source');
    expect(inline.message).to.match(/line 1\b/);
    const filter = await refused([
      { type: 'map', config: { source: 'result = 1;' } },
      { type: 'filter', config: { source: 'const ok = true;\nresult = ok &&;' } },
    ]);
    expect(filter.pointer).to.equal('/steps/1/config/source');
    expect(filter.message).to.match(/line 2\b/);

    const workspace = unique('check-ws');
    const created = await tk.request('POST', '/studio/workspaces', {
      body: {
        id: workspace,
        name: workspace,
        files: {
          'main.js': "import { k } from './lib.js';\nservice.route.push({ k });\n",
          'lib.js': 'export const k = 1;\n',
        },
      },
    });
    expect(created.status, created.text).to.equal(201);
    const ok = await tk.request('POST', '/workflows', {
      body: { ...body([{ type: 'script', config: { workspace_id: workspace } }]), id: unique('check-ok') },
    });
    expect(ok.status, ok.text).to.equal(201);
    // The workspace breaks after the save: the deploy compiles it again and refuses it.
    const broken = await tk.request('PUT', `/studio/workspaces/${workspace}/files`, {
      body: { files: { 'lib.js': 'export const k = 1;\nexport const = 2;\n' } },
    });
    expect(broken.status, broken.text).to.equal(200);
    const deployed = await tk.request('POST', `/workflows/${ok.body.id}/deploy`, { body: { request_id: unique('d') } });
    expect(deployed.status, deployed.text).to.equal(400);
    expect(deployed.body.error.details[0].pointer).to.equal('/steps/0/config/workspace_id');
    expect(deployed.body.error.details[0].message).to.match(/line 2 of lib\.js/);
    const saved = await refused([{ type: 'script', config: { workspace_id: workspace } }]);
    expect(saved.pointer).to.equal('/steps/0/config/workspace_id');
  });

  it('deleting a stream, codec, component or workspace in use answers 409 naming every dependent (workflow, source, alert rule, BPMN definition); once unused, it deletes', async () => {
    const [input, output, sourced] = [unique('use-in'), unique('use-out'), unique('use-src')];
    for (const s of [input, output, sourced]) await createStream(tk, s);
    const codec = await tk.request('POST', '/codecs', { body: { name: unique('use-json'), kind: 'json' } });
    expect(codec.status, codec.text).to.equal(201);
    const workspace = unique('use-ws');
    const ws = await tk.request('POST', '/studio/workspaces', {
      body: { id: workspace, name: workspace, files: { 'main.js': 'service.route.push({ ok: true });' } },
    });
    expect(ws.status, ws.text).to.equal(201);
    const sink = await makeComponent(tk, { name: unique('use-log'), type: 'log', config: {} });
    const source = await makeComponent(tk, {
      name: unique('use-timer'),
      type: 'timer',
      stream: sourced,
      config: { every_seconds: 3600 },
    });
    const id = unique('use-wf');
    await createWorkflow(tk, {
      id,
      name: id,
      input: { stream: input },
      steps: [
        { type: 'codec.decode', config: { codec: codec.body.id } },
        { type: 'script', config: { workspace_id: workspace } },
      ],
      sinks: [{ type: 'stream.publish', config: { stream: output } }, { component: sink.id }],
    });
    await deploy(tk, id, unique('deploy'));
    const rule = await tk.request('POST', '/alerts/rules', {
      body: { name: unique('lag'), signal: 'consumer_lag', selector: { stream: input }, op: '>', threshold: 100 },
    });
    expect(rule.status, rule.text).to.equal(201);
    const bpmn = await tk.request('POST', '/bpmn/definitions', {
      raw: serviceXml(unique('use-proc').replace(/-/g, '_'), `stream:${output}`),
      contentType: 'application/octet-stream',
    });
    expect(bpmn.status, bpmn.text).to.equal(201);

    const refused = async (path: string, names: string[]) => {
      const res = await tk.request('DELETE', path);
      expect(res.status, `${path}: ${res.text}`).to.equal(409);
      expect(res.body.error.code).to.equal('conflict');
      for (const name of names) expect(res.body.error.message, path).to.contain(name);
      return res;
    };
    await refused(`/streams/${input}`, [`workflow "${id}"`, 'input stream', `alert rule "${rule.body.id}"`]);
    await refused(`/streams/${output}`, [`workflow "${id}"`, `BPMN definition "${bpmn.body.key}"`]);
    await refused(`/streams/${sourced}`, [`component "${source.id}"`]);
    await refused(`/codecs/${codec.body.id}`, [`workflow "${id}"`]);
    await refused(`/components/${sink.id}`, [`workflow "${id}"`]);
    await refused(`/studio/workspaces/${workspace}`, [`workflow "${id}"`]);
    // Still there, all of them.
    expect((await tk.request('GET', `/streams/${input}`)).status).to.equal(200);
    expect((await tk.request('GET', `/codecs/${codec.body.id}`)).status).to.equal(200);

    // A paused workflow still uses them; a deleted one no longer does.
    expect((await tk.request('POST', `/workflows/${id}/pause`, { body: {} })).status).to.equal(200);
    await refused(`/codecs/${codec.body.id}`, [`workflow "${id}"`]);
    expect((await tk.request('DELETE', `/workflows/${id}`)).status).to.equal(204);
    for (const path of [`/codecs/${codec.body.id}`, `/components/${sink.id}`, `/studio/workspaces/${workspace}`])
      expect((await tk.request('DELETE', path)).status, path).to.equal(204);
    await refused(`/streams/${input}`, [`alert rule "${rule.body.id}"`]);
    expect((await tk.request('DELETE', `/alerts/rules/${rule.body.id}`)).status).to.equal(204);
    expect((await tk.request('DELETE', `/streams/${input}`)).status).to.equal(204);
  });

  it('a broker cut turns the sink component failed (component_failed fires) and the workflow shows the error, all in /logs; back, both recover', async () => {
    const rabbit = await rabbitQueue();
    const relay = new Relay(5672);
    await relay.open();
    try {
      const input = unique('cut-in');
      await createStream(tk, input);
      const sink = await makeComponent(tk, {
        name: unique('cut-sink'),
        type: 'amqp.publish',
        config: { url: `amqp://guest:guest@127.0.0.1:${relay.port}`, exchange: '', routing_key: rabbit.queue },
      });
      const id = unique('cut');
      await createWorkflow(tk, {
        id,
        name: id,
        input: { stream: input },
        steps: [],
        sinks: [{ component: sink.id }],
        on_error: { max_attempts: 100, backoff_ms: 200 },
      });
      await deploy(tk, id, unique('deploy'));
      const rule = await tk.request('POST', '/alerts/rules', {
        body: {
          name: unique('failed'),
          signal: 'component_failed',
          selector: { component: sink.id },
          op: '>=',
          threshold: 1,
          for_seconds: 0,
        },
      });
      expect(rule.status, rule.text).to.equal(201);
      await publish(tk, input, [{ value: { n: 1 } }]);
      await until(async () => rabbit.got.length === 1, 30_000, { what: 'delivered through the relay' });

      await relay.cut();
      await publish(tk, input, [{ value: { n: 2 } }]);
      const failed = await until(
        async () => {
          const c = (await tk.request('GET', `/components/${sink.id}`)).body;
          return c.status.state === 'failed' && c;
        },
        30_000,
        { what: 'the sink failed' },
      );
      expect(failed.status.last_error).to.be.a('string').and.not.equal('');
      const workflow = (await tk.request('GET', `/workflows/${id}`)).body;
      expect(workflow.last_error).to.be.a('string').and.not.equal('');
      const logs = (await tk.request('GET', '/logs?source=workflows&level=error&limit=1000')).body.items as any[];
      expect(logs.some((l) => l.fields?.component === sink.id && l.fields?.workflow === id)).to.equal(true);
      await until(
        async () => {
          const alerts = (await tk.request('GET', '/alerts?state=firing')).body.items as any[];
          return alerts.some(
            (a) => a.rule_id === rule.body.id || a.rule === rule.body.id || a.labels?.component === sink.id,
          );
        },
        30_000,
        { what: 'component_failed fires' },
      );

      await relay.open();
      await until(async () => rabbit.got.length >= 2, 60_000, {
        what: 'the held message delivered after the broker is back',
      });
      await until(
        async () => {
          const c = (await tk.request('GET', `/components/${sink.id}`)).body;
          return c.status.state === 'running';
        },
        30_000,
        { what: 'the sink running again' },
      );
      expect((await tk.request('GET', `/workflows/${id}`)).body.last_error).to.equal(undefined);
    } finally {
      await relay.cut().catch(() => undefined);
      await rabbit.close();
    }
  });
});
