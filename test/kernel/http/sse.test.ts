import { get as httpGet, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Manifest, RouteDecl } from '../../../kernel/manifest/types.js';
import type { PluginDefinition } from '../../../kernel/types.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin, mintToken } from '../../support/identity.js';
import { readEvents } from '../../support/realtime.js';
import { until } from '../../support/poll.js';

const FIXTURE = { module: 'test/fixtures/realtime-plugin' };
const PLUGINS = ['system', 'identity', 'audit', FIXTURE];

/** What the probe plugin's streams saw, for the tests to assert on. */
const seen = { aborted: [] as string[], finished: 0, produced: 0 };

const EVENT_BYTES = 16 * 1024;
const FLOOD_EVENTS = 5000;

function streamRoute(operation: string, path: string): RouteDecl {
  return {
    operation,
    method: 'GET',
    path,
    permission: 'authenticated',
    category: 'test',
    read_only: true,
    summary: `Probe stream ${path}`,
    stream: 'sse',
    response: { status: 200 },
  };
}

/** Streams written against the kernel's types, to watch what a handler sees. */
const probe: PluginDefinition = {
  id: 'probe',
  manifest: {
    id: 'probe',
    version: '1.0.0',
    summary: 'Event streams that record what they see',
    routes: [
      streamRoute('probeForever', '/probe/forever'),
      streamRoute('probeSlow', '/probe/slow'),
      streamRoute('probeFailing', '/probe/failing'),
      streamRoute('probeFlood', '/probe/flood'),
    ],
  } satisfies Manifest,
  setup: () => ({
    handlers: {
      probeForever: () => ({
        status: 200,
        async *events(signal) {
          try {
            yield { data: 'first' };
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
            seen.aborted.push(String((signal.reason as Error).message));
          } finally {
            seen.finished++;
          }
        },
      }),
      probeSlow: () => ({
        status: 200,
        async *events(signal) {
          yield { data: 'one' };
          await sleep(500, undefined, { signal });
          yield { data: 'two' };
        },
      }),
      probeFailing: () => ({
        status: 200,
        async *events() {
          yield { data: 'one' };
          throw new Error('the producer broke');
        },
      }),
      probeFlood: () => ({
        status: 200,
        async *events() {
          const padding = 'x'.repeat(EVENT_BYTES);
          for (let n = 1; n <= FLOOD_EVENTS; n++) {
            seen.produced = n;
            yield { id: n, data: padding };
          }
        },
      }),
    },
  }),
};

describe('event-stream routes (server-sent events)', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS, http: { sse: { heartbeat_ms: 100 } } }, { plugins: [probe] });
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  it('streams the counter 1..5 in order as text/event-stream, then ends', async () => {
    const stream = await readEvents(tk, '/echo/counter?to=5', admin);
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).to.equal('no-store');
    expect(stream.headers.get('x-request-id')).to.be.a('string');
    const events = [];
    for (let event = await stream.next(); event; event = await stream.next()) events.push(event);
    expect(events).to.deep.equal(
      [1, 2, 3, 4, 5].map((n) => ({ id: String(n), event: 'count', data: JSON.stringify({ n }) })),
    );
  });

  it("needs a credential (401) and the route's permission (403), answered in the error shape", async () => {
    const anonymous = await readEvents(tk, '/echo/counter?to=5');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('authentication_required');
    const viewer = await mintToken(tk, admin, ['viewer']);
    const denied = await readEvents(tk, '/echo/counter?to=5', viewer);
    expect(denied.status).to.equal(403);
    expect(denied.body.error).to.include({ code: 'forbidden', status: 403 });
    expect(denied.body.error.message).to.contain('echo:counter:watch');
  });

  it('validates the query like any GET (400)', async () => {
    const bad = await readEvents(tk, '/echo/counter?to=0', admin);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation_error');
  });

  it("aborts the handler's signal when the client disconnects, and the handler's finally runs", async () => {
    const finished = seen.finished;
    const stream = await readEvents(tk, '/probe/forever', admin);
    expect((await stream.next())?.data).to.equal('first');
    await stream.cancel();
    await until(() => seen.finished > finished, 10_000, { what: 'the generator ended' });
    expect(seen.aborted.at(-1)).to.equal('client disconnected');
    const metrics = await tk.request('GET', '/metrics');
    expect(metrics.text).to.match(/^sse_open_streams 0$/m);
  });

  it('sends heartbeat comments while no event is due', async () => {
    const stream = await readEvents(tk, '/probe/slow', admin);
    expect((await stream.next())?.data).to.equal('one');
    expect((await stream.next())?.data).to.equal('two');
    expect(stream.comments()).to.be.at.least(1);
    expect(await stream.next()).to.equal(undefined);
  });

  it('ends a stream whose producer throws with an error event in the error shape', async () => {
    const stream = await readEvents(tk, '/probe/failing', admin);
    expect((await stream.next())?.data).to.equal('one');
    const error = await stream.next();
    expect(error?.event).to.equal('error');
    expect(JSON.parse(error?.data ?? '')).to.deep.equal({
      error: { code: 'internal_error', message: 'Internal error.', status: 500 },
    });
    expect(await stream.next()).to.equal(undefined);
  });

  it('stops pulling events while the client does not read (backpressure), and goes on when it does', async () => {
    seen.produced = 0;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(`${tk.url}/probe/flood`, { headers: { authorization: `Bearer ${admin}` } }, resolve).on('error', reject);
    });
    expect(response.statusCode).to.equal(200);
    response.pause();
    // The producer runs until the socket buffers are full, then waits.
    let last = -1;
    await until(
      async () => {
        const now = seen.produced;
        const stalled = now > 0 && now === last;
        last = now;
        await sleep(200);
        return stalled;
      },
      10_000,
      { what: 'the producer stalls' },
    );
    const stalledAt = seen.produced;
    expect(stalledAt).to.be.below(FLOOD_EVENTS);
    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expect(seen.produced).to.equal(FLOOD_EVENTS);
    expect(received).to.be.greaterThan(FLOOD_EVENTS * EVENT_BYTES);
  });
});

describe('event-stream routes at shutdown', function () {
  this.timeout(120_000);

  it('ends open streams and aborts their handlers when the kernel closes', async () => {
    const tk = await startKernel({ plugins: ['system', 'identity'] }, { plugins: [probe] });
    const admin = await loginAdmin(tk);
    const finished = seen.finished;
    const stream = await readEvents(tk, '/probe/forever', admin);
    expect((await stream.next())?.data).to.equal('first');
    await tk.close();
    expect(await stream.next(), 'the stream has ended').to.equal(undefined);
    expect(seen.finished).to.equal(finished + 1);
    expect(seen.aborted.at(-1)).to.equal('server shutting down');
  });
});
