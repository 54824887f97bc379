import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createStream, deploy, publish, readAll } from './support.js';
import { until } from '../../support/poll.js';

const transform = (set: Record<string, unknown>) => ({ type: 'json.transform', config: { set } });

describe('workflows: revisions, deploys and the workers', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows'],
      auth: { mode: 'none' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
    });
    for (const s of ['in', 'out', 'dlq', 'loop-a', 'loop-b']) await createStream(tk, s, s === 'in' ? 2 : 1);
  });
  after(() => tk?.close());
  const db = () => tk.kernel.database.knex;
  const audits = async (res: { headers: Headers }) =>
    db()('audit_records').where({ request_id: res.headers.get('x-request-id') });

  const definition = (extra: Record<string, unknown> = {}) => ({
    name: 'Orders',
    input: { stream: 'in' },
    steps: [transform({ seen: true })],
    sinks: [{ type: 'stream.publish', config: { stream: 'out' } }],
    on_error: { max_attempts: 2, backoff_ms: 50, dead_letter_stream: 'dlq' },
    ...extra,
  });

  it('creates revision 1, revises with PUT and PATCH (each a new immutable revision), refuses a stale If-Match with 412, and diffs revisions', async () => {
    const created = await tk.request('POST', '/workflows', { body: { id: 'crud', ...definition() } });
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.get('etag')).to.equal('"1"');
    expect(created.body).to.include({ id: 'crud', revision: 1, state: 'draft', deployed_revision: null });
    expect(created.body.on_error).to.deep.equal({ max_attempts: 2, backoff_ms: 50, dead_letter_stream: 'dlq' });
    expect(await audits(created)).to.have.length(1);

    const put = await tk.request('PUT', '/workflows/crud', {
      headers: { 'if-match': '"1"' },
      body: definition({ name: 'Orders v2', steps: [transform({ seen: 2 })] }),
    });
    expect(put.status, put.text).to.equal(200);
    expect(put.headers.get('etag')).to.equal('"2"');
    const stale = await tk.request('PATCH', '/workflows/crud', {
      headers: { 'if-match': '"1"' },
      body: { name: 'lost update' },
    });
    expect(stale.status, stale.text).to.equal(412);
    expect(stale.body.error.code).to.equal('precondition_failed');
    expect(await audits(stale)).to.have.length(1);
    const patch = await tk.request('PATCH', '/workflows/crud', {
      headers: { 'if-match': '"2"' },
      body: { description: 'third' },
    });
    expect(patch.status, patch.text).to.equal(200);
    expect(patch.body).to.include({ revision: 3, name: 'Orders v2', description: 'third' });

    const revisions = await tk.request('GET', '/workflows/crud/revisions');
    expect(revisions.body.items.map((r: any) => [r.revision, r.definition.name])).to.deep.equal([
      [1, 'Orders'],
      [2, 'Orders v2'],
      [3, 'Orders v2'],
    ]);
    const stored = await db()('workflows_revisions')
      .where({ tenant_id: 'default', workflow_id: 'crud', revision: 1 })
      .first();
    expect(stored.definition.steps[0].config.set).to.deep.equal({ seen: true });

    const diff = await tk.request('GET', '/workflows/crud/revisions/2/diff?against=1');
    expect(diff.status, diff.text).to.equal(200);
    expect(diff.body.changes).to.deep.equal([
      { path: '/name', op: 'changed', from: 'Orders', to: 'Orders v2' },
      { path: '/steps/0/config/set/seen', op: 'changed', from: true, to: 2 },
    ]);
    expect(diff.body.text).to.deep.equal(['~ /name: "Orders" → "Orders v2"', '~ /steps/0/config/set/seen: true → 2']);
    const previous = await tk.request('GET', '/workflows/crud/revisions/3/diff');
    expect(previous.body).to.include({ against: 2 });
    expect(previous.body.text).to.deep.equal(['+ /description: "third"']);
    expect((await tk.request('GET', '/workflows/crud/revisions/9/diff')).status).to.equal(404);

    const del = await tk.request('DELETE', '/workflows/crud', { headers: { 'if-match': '"2"' } });
    expect(del.status).to.equal(412);
    expect((await tk.request('DELETE', '/workflows/crud', { headers: { 'if-match': '"3"' } })).status).to.equal(204);
    expect(await db()('workflows_revisions').where({ tenant_id: 'default', workflow_id: 'crud' })).to.have.length(0);
    expect((await tk.request('GET', '/workflows/crud')).status).to.equal(404);
  });

  it('refuses references that do not exist, kinds in the wrong place and loops back into the input, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [definition({ input: { stream: 'nope' } }), '/input/stream'],
      [definition({ steps: [{ type: 'stream.publish', config: { stream: 'out' } }] }), '/steps/0/type'],
      [definition({ sinks: [transform({})] }), '/sinks/0/type'],
      [definition({ steps: [{ type: 'no.such.type' }] }), '/steps/0/type'],
      [definition({ sinks: [{ type: 'stream.publish', config: { stream: 'missing' } }] }), '/sinks/0/config/stream'],
      [definition({ sinks: [{ type: 'stream.publish', config: {} }] }), '/sinks/0/config/stream'],
      [definition({ steps: [{ type: 'codec.decode', config: { codec: 'nope' } }] }), '/steps/0/config/codec'],
      [definition({ steps: [{ component: 'ghost' }] }), '/steps/0/component'],
      [
        definition({ on_error: { max_attempts: 1, backoff_ms: 1, dead_letter_stream: 'gone' } }),
        '/on_error/dead_letter_stream',
      ],
      [definition({ sinks: [{ type: 'stream.publish', config: { stream: 'in' } }] }), '/sinks'],
    ];
    for (const [body, pointer] of cases) {
      const res = await tk.request('POST', '/workflows', { body: { id: 'bad', ...body } });
      expect(res.status, `${pointer}: ${res.text}`).to.equal(400);
      expect(res.body.error.details[0].pointer, res.text).to.equal(pointer);
    }
    // A loop through two workflows: loop-a → A → loop-b, then loop-b → B → loop-a is refused unless allowed.
    const a = await tk.request('POST', '/workflows', {
      body: {
        id: 'loop-1',
        name: 'A',
        input: { stream: 'loop-a' },
        sinks: [{ type: 'stream.publish', config: { stream: 'loop-b' } }],
      },
    });
    expect(a.status, a.text).to.equal(201);
    const b = {
      id: 'loop-2',
      name: 'B',
      input: { stream: 'loop-b' },
      sinks: [{ type: 'stream.publish', config: { stream: 'loop-a' } }],
    };
    expect((await tk.request('POST', '/workflows', { body: b })).status).to.equal(400);
    const allowed = await tk.request('POST', '/workflows', { body: { ...b, allow_cycles: true } });
    expect(allowed.status, allowed.text).to.equal(201);
    expect(await db()('workflows_workflows').where({ tenant_id: 'default', id: 'bad' })).to.have.length(0);
  });

  it('processes a stream through json.transform into another stream, once each, and shows runs and deliveries', async () => {
    const res = await tk.request('POST', '/workflows', { body: { id: 'enrich', ...definition() } });
    expect(res.status, res.text).to.equal(201);
    const deployed = await deploy(tk, 'enrich', 'deploy-enrich-1');
    expect(deployed).to.include({ state: 'running', deployed_revision: 1 });
    const again = await tk.request('POST', '/workflows/enrich/deploy', { body: { request_id: 'deploy-enrich-1' } });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');

    const ids = await publish(
      tk,
      'in',
      Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: { n: i } })),
    );
    const outputs = await until(
      async () => {
        const out = await readAll(tk, 'out');
        return out.length >= 20 && out;
      },
      30_000,
      { what: '20 outputs' },
    );
    expect(outputs).to.have.length(20);
    const bySource = new Map(outputs.map((m: any) => [m.headers['x-workflow-source'], m]));
    for (const [i, id] of ids.entries()) {
      expect(bySource.get(id)?.value, id).to.deep.equal({ n: i, seen: true });
      expect(bySource.get(id)?.key).to.equal(`k${i}`);
    }
    const message = await tk.request('GET', `/messages/${ids[0]}`);
    expect(message.body.deliveries.map((d: any) => [d.workflow, d.revision, d.status, d.attempt])).to.deep.equal([
      ['enrich', 1, 'processed', 1],
    ]);
    const processed = await tk.request('GET', '/messages?workflow=enrich&status=processed&stream=in');
    expect(processed.body.items).to.have.length(20);
    const runs = await tk.request('GET', '/workflows/enrich/runs?status=processed');
    expect(runs.body.items).to.have.length(20);
    expect(runs.body.items[0]).to.include({ workflow: 'enrich', revision: 1, status: 'processed', attempts: 1 });
    const consumers = await tk.request('GET', '/streams/in/consumers');
    expect(
      consumers.body.items
        .filter((c: any) => c.consumer === 'enrich')
        .reduce((s: number, c: any) => s + c.committed_offset, 0),
    ).to.equal(20);

    // A new revision deployed: the next messages go through it.
    const put = await tk.request('PATCH', '/workflows/enrich', { body: { steps: [transform({ seen: 'v2' })] } });
    expect(put.status, put.text).to.equal(200);
    await deploy(tk, 'enrich', 'deploy-enrich-2');
    const [later] = await publish(tk, 'in', [{ value: { n: 99 } }]);
    const v2 = await until(
      async () => (await readAll(tk, 'out')).find((m: any) => m.headers['x-workflow-source'] === later),
      30_000,
      { what: 'v2 output' },
    );
    expect(v2.value).to.deep.equal({ n: 99, seen: 'v2' });

    // Replay a revision-1 run on revision 2: a new run, and one more output; the original stays.
    const first = runs.body.items[0];
    const replay = await tk.request('POST', `/workflows/enrich/runs/${first.id}/replay`, {
      body: { request_id: 'replay-1', revision: 2 },
    });
    expect(replay.status, replay.text).to.equal(201);
    expect(replay.body).to.include({
      replay_of: first.id,
      revision: 2,
      status: 'processed',
      message_id: first.message_id,
    });
    expect(replay.body.id).to.not.equal(first.id);
    const replayed = (await readAll(tk, 'out')).filter((m: any) => m.headers['x-workflow-source'] === first.message_id);
    expect(replayed.map((m: any) => m.value.seen).sort()).to.deep.equal(['v2', true].sort() as any);
    expect((await tk.request('GET', `/workflows/enrich/runs/${first.id}`)).body).to.deep.equal(first);

    // Paused: nothing more is processed until resumed.
    expect((await tk.request('POST', '/workflows/enrich/pause', { body: {} })).body.state).to.equal('paused');
    const [held] = await publish(tk, 'in', [{ value: { n: 100 } }]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await readAll(tk, 'out')).find((m: any) => m.headers['x-workflow-source'] === held)).to.equal(undefined);
    expect((await tk.request('POST', '/workflows/enrich/resume', { body: {} })).body.state).to.equal('running');
    await until(
      async () => (await readAll(tk, 'out')).find((m: any) => m.headers['x-workflow-source'] === held),
      30_000,
      { what: 'resumed output' },
    );

    // Deleted and re-created under the same id: it starts from the beginning of its input again.
    await tk.request('POST', '/workflows/enrich/pause', { body: {} });
    expect((await tk.request('DELETE', '/workflows/enrich')).status).to.equal(204);
    expect(await db()('streams_consumer_offsets').where({ tenant_id: 'default', consumer: 'enrich' })).to.deep.equal(
      [],
    );
    expect((await tk.request('POST', '/workflows', { body: { id: 'enrich', ...definition() } })).status).to.equal(201);
    const metrics = await tk.request('GET', '/metrics');
    expect(metrics.text).to.match(/workflow_messages_in_total\{tenant="default",workflow="enrich",stream="in"\} \d+/);
    expect(metrics.text).to.match(
      /workflow_processing_seconds_count\{tenant="default",workflow="enrich",stream="in"\}/,
    );
    await tk.request('POST', '/workflows/enrich/pause', { body: {} });
  });

  it('runs map, filter and script steps in the sandbox: a stream → map → filter → script → stream workflow', async () => {
    await createStream(tk, 's-in', 2);
    await createStream(tk, 's-out');
    const body = {
      id: 'scripted',
      name: 'Scripted',
      input: { stream: 's-in' },
      steps: [
        {
          type: 'map',
          config: { source: 'const v = service.json.decode(input.body); result = { ...v, key: input.key };' },
        },
        { type: 'filter', config: { source: 'result = service.json.decode(input.body).n % 2 === 0;' } },
        {
          type: 'script',
          config: {
            source:
              'const v = service.json.decode(input.body); console.log("n", v.n); service.route.push({ ...v, half: v.n / 2 }); service.route.push({ ...v, copy: true });',
          },
        },
      ],
      sinks: [
        { type: 'stream.publish', config: { stream: 's-out' } },
        { type: 'log', config: { level: 'info' } },
      ],
    };
    const created = await tk.request('POST', '/workflows', { body });
    expect(created.status, created.text).to.equal(201);
    await deploy(tk, 'scripted', 'deploy-scripted');
    const ids = await publish(
      tk,
      's-in',
      Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: { n: i } })),
    );
    const out = await until(
      async () => {
        const all = await readAll(tk, 's-out');
        return all.length >= 6 && all;
      },
      30_000,
      { what: 'outputs of the even inputs' },
    );
    expect(out).to.have.length(6);
    for (const i of [0, 2, 4]) {
      const mine = out.filter((m: any) => m.headers['x-workflow-source'] === ids[i]).map((m: any) => m.value);
      expect(mine).to.deep.include.members([
        { n: i, key: `k${i}`, half: i / 2 },
        { n: i, key: `k${i}`, copy: true },
      ]);
    }
    // Odd inputs were filtered out: `filtered` (the run went through, nothing came out). The two partitions are worked on
    // independently, so the odd input's partition may still be behind when the even outputs are in.
    const odd = await until(
      async () => {
        const res = await tk.request('GET', `/messages/${ids[1]}`);
        return res.body.deliveries.length > 0 && res;
      },
      30_000,
      { what: 'the odd input delivered' },
    );
    expect(odd.body.deliveries.map((d: any) => d.status)).to.deep.equal(['filtered']);
    await until(
      async () => {
        const logs = await db()('runtime_logs')
          .where({ tenant_id: 'default', source: 'workflows' })
          .catch(() => [] as any[]);
        return (
          logs.some((l: any) => l.message === 'n 4') &&
          logs.some((l: any) => l.message === 'message delivered to log sink')
        );
      },
      30_000,
      { what: 'console lines and log sink records in the logs domain' },
    );
    await tk.request('POST', '/workflows/scripted/pause', { body: {} });
  });

  it('retries a poison message with backoff up to max_attempts, then it is dead and copied to the dead-letter stream; redrive after fixing the script (a new revision) succeeds as new history', async () => {
    await createStream(tk, 'p-in');
    await createStream(tk, 'p-out');
    await createStream(tk, 'p-dlq');
    const script = (poison: string) => ({
      type: 'script',
      config: {
        source: `const v = service.json.decode(input.body); if (v.poison) { ${poison} } service.route.push({ ...v, ok: true });`,
      },
    });
    const body = {
      id: 'poison',
      name: 'Poison',
      input: { stream: 'p-in' },
      steps: [script("throw new Error('poisoned ' + v.poison);")],
      sinks: [{ type: 'stream.publish', config: { stream: 'p-out' } }],
      on_error: { max_attempts: 3, backoff_ms: 200, dead_letter_stream: 'p-dlq' },
    };
    expect((await tk.request('POST', '/workflows', { body })).status).to.equal(201);
    await deploy(tk, 'poison', 'deploy-poison-1');
    // The message after the poison one waits its turn (order within a partition is kept).
    const [bad, good] = await publish(tk, 'p-in', [
      { key: 'a', value: { poison: 'pill' } },
      { key: 'a', value: { fine: 1 } },
    ]);
    const deadLetter = await until(async () => (await readAll(tk, 'p-dlq'))[0], 30_000, { what: 'the dead letter' });
    expect(deadLetter.headers).to.include({ 'x-dead-letter-of': bad, 'x-dead-letter-workflow': 'poison' });
    expect(deadLetter.value).to.deep.equal({ poison: 'pill' });
    const detail = await tk.request('GET', `/messages/${bad}`);
    expect(detail.body.deliveries.map((d: any) => [d.attempt, d.status, d.revision])).to.deep.equal([
      [1, 'failed', 1],
      [2, 'failed', 1],
      [3, 'dead', 1],
    ]);
    const times = detail.body.deliveries.map((d: any) => Date.parse(d.at));
    expect(times[1] - times[0]).to.be.at.least(190);
    expect(times[2] - times[1]).to.be.at.least(390);
    expect(detail.body.deliveries[2].error).to.match(/poisoned pill/);
    const deadRuns = await tk.request('GET', '/workflows/poison/runs?status=dead');
    expect(deadRuns.body.items).to.have.length(1);
    expect(deadRuns.body.items[0]).to.include({ message_id: bad, attempts: 3, status: 'dead' });
    await until(
      async () => (await readAll(tk, 'p-out')).find((m: any) => m.headers['x-workflow-source'] === good),
      30_000,
      { what: 'the good message after it' },
    );
    expect(
      (await tk.request('GET', '/messages?workflow=poison&status=dead')).body.items.map((m: any) => m.id),
    ).to.deep.equal([bad]);
    const logged = await until(
      async () =>
        (
          await db()('runtime_logs')
            .where({ tenant_id: 'default', source: 'workflows', level: 'error' })
            .catch(() => [] as any[])
        ).find((l: any) => /dead after 3 attempts/.test(l.message)),
      30_000,
      { what: 'the dead message in the logs domain' },
    );
    expect(logged).to.not.equal(undefined);

    // Fix the script (revision 2), deploy it, and redrive: the dead message is replayed as a new one.
    expect(
      (await tk.request('PATCH', '/workflows/poison', { body: { steps: [script('v.poison = "cured";')] } })).status,
    ).to.equal(200);
    await deploy(tk, 'poison', 'deploy-poison-2');
    const redrive = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'poison', status: 'dead', limit: 10, request_id: 'redrive-1' },
    });
    expect(redrive.status, redrive.text).to.equal(200);
    expect(redrive.body.replayed).to.equal(1);
    const copy = redrive.body.messages[0].id;
    const fixed = await until(
      async () => (await readAll(tk, 'p-out')).find((m: any) => m.headers['x-workflow-source'] === copy),
      30_000,
      { what: 'the redriven output' },
    );
    expect(fixed.value).to.deep.equal({ poison: 'cured', ok: true });
    const copyDetail = await tk.request('GET', `/messages/${copy}`);
    expect(copyDetail.body.replay_of).to.equal(bad);
    expect(copyDetail.body.deliveries.map((d: any) => [d.revision, d.status])).to.deep.equal([[2, 'processed']]);
    // The original keeps its history.
    expect((await tk.request('GET', `/messages/${bad}`)).body.deliveries.map((d: any) => d.status)).to.deep.equal([
      'failed',
      'failed',
      'dead',
    ]);
    await tk.request('POST', '/workflows/poison/pause', { body: {} });
  });
});
