import { expect } from 'chai';
import { dlqDepth } from '../../../plugins/streams/alert-signals.js';
import { createDeadLetters } from '../../../plugins/streams/migrations/005_dead_letters.js';
import { createMessageRuns } from '../../../plugins/streams/migrations/007_message_runs.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createStream, deploy, publish, readAll } from '../workflows/support.js';
import { until } from '../../support/poll.js';

/**
 * The dead-letter count users watch (the dashboard's `dead_letters`, the alerts' `dlq_depth`)
 * follows the real worker, replays and redrives: the streams plugin keeps the open dead letters in
 * the transactions that open and close them.
 */
describe('dashboard: dead letters follow deaths, replays and redrives', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'alerts', 'dashboard'],
      auth: { mode: 'none' },
      log: { level: 'error' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 }, alerts: { evaluation_interval_ms: 3_600_000 } },
    });
    for (const s of ['dl-in', 'dl-out']) await createStream(tk, s);
  });
  after(() => tk?.close());

  async function shown(): Promise<number | undefined> {
    const res = await tk.request('GET', '/dashboard?window=5m');
    expect(res.status, res.text).to.equal(200);
    return res.body.sections.workflows.find((w: any) => w.workflow === 'sorter')?.dead_letters;
  }
  const open = async () =>
    (await db()('streams_dead_letters')
      .where({ tenant_id: 'default', workflow: 'sorter' })
      .orderBy('message_id')
      .pluck('message_id')) as string[];
  const depth = async () =>
    (await dlqDepth.measure(db(), 'default', { workflow: 'sorter' }, new Date()))[0]?.value ?? 0;

  it('counts a death once, and a run replay, a message replay and a redrive each close theirs in the same request', async () => {
    const script = (poison: string) => ({
      type: 'script',
      config: {
        source: `const v = service.json.decode(input.body); if (v.poison) { ${poison} } service.route.push(v);`,
      },
    });
    const body = {
      id: 'sorter',
      name: 'Sorter',
      input: { stream: 'dl-in' },
      steps: [script("throw new Error('poisoned');")],
      sinks: [{ type: 'stream.publish', config: { stream: 'dl-out' } }],
      on_error: { max_attempts: 1, backoff_ms: 10 },
    };
    expect((await tk.request('POST', '/workflows', { body })).status).to.equal(201);
    await deploy(tk, 'sorter', 'deploy-sorter-1');
    const [p1, p2, p3, good] = (await publish(tk, 'dl-in', [
      { value: { poison: 1 } },
      { value: { poison: 2 } },
      { value: { poison: 3 } },
      { value: { fine: true } },
    ])) as [string, string, string, string];
    await until(
      async () => (await readAll(tk, 'dl-out')).some((m: any) => m.headers['x-workflow-source'] === good),
      30_000,
      { what: 'the good message after the dead ones' },
    );
    expect(await open()).to.deep.equal([p1, p2, p3].sort());
    expect(await shown()).to.equal(3);
    expect(await depth()).to.equal(3);

    // Fixed on revision 2: a replayed run of p1 is processed, and that closes p1's dead letter.
    expect(
      (await tk.request('PATCH', '/workflows/sorter', { body: { steps: [script('v.poison = 0;')] } })).status,
    ).to.equal(200);
    await deploy(tk, 'sorter', 'deploy-sorter-2');
    const runs = await tk.request('GET', '/workflows/sorter/runs?status=dead');
    const run = runs.body.items.find((r: any) => r.message_id === p1);
    const replayedRun = await tk.request('POST', `/workflows/sorter/runs/${run.id}/replay`, { body: {} });
    expect(replayedRun.status, replayedRun.text).to.equal(201);
    expect(replayedRun.body.status).to.equal('processed');
    expect(await open()).to.deep.equal([p2, p3].sort());
    expect(await shown()).to.equal(2);

    // A replay of the message supersedes it; a dry run does not.
    expect((await tk.request('POST', `/messages/${p2}/replay?dry_run=true`, { body: {} })).status).to.be.oneOf([
      200, 201,
    ]);
    expect(await depth()).to.equal(2);
    const replay = await tk.request('POST', `/messages/${p2}/replay`, { body: {} });
    expect(replay.status, replay.text).to.equal(201);
    expect(await open()).to.deep.equal([p3]);
    expect(await shown()).to.equal(1);
    expect(await depth()).to.equal(1);

    // Redrive replays the messages whose latest delivery is dead (p2's still is, p3's): none stays open.
    const redrive = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'sorter', status: 'dead', limit: 10, request_id: 'redrive-sorter' },
    });
    expect(redrive.status, redrive.text).to.equal(200);
    expect(redrive.body.messages.map((m: any) => m.replay_of)).to.include(p3);
    expect(await open()).to.deep.equal([]);
    expect(await shown()).to.equal(0);
    expect(await depth()).to.equal(0);
    // The replays are processed on revision 2: nothing dies, nothing opens.
    const copies = [
      replay.body.id ?? replay.body.messages?.[0]?.id,
      ...redrive.body.messages.map((m: any) => m.id),
    ].filter(Boolean);
    await until(
      async () =>
        (await readAll(tk, 'dl-out')).filter((m: any) => copies.includes(m.headers['x-workflow-source'])).length ===
        copies.length,
      30_000,
      { what: 'the replays processed' },
    );
    expect(await open()).to.deep.equal([]);
    await tk.request('POST', '/workflows/sorter/pause', { body: {} });
  });

  it('the migration opens a dead letter for each dead latest delivery not replayed, from the deliveries recorded before it', async () => {
    await createStream(tk, 'legacy-in');
    const [dead, deadAfterRetry, revived, replayed] = (await publish(tk, 'legacy-in', [
      { value: 1 },
      { value: 2 },
      { value: 3 },
      { value: 4 },
    ])) as [string, string, string, string];
    const delivery = (message: string, attempt: number, status: string) => ({
      tenant_id: 'default',
      message_id: message,
      workflow: 'legacy',
      revision: 1,
      run_id: `r-${message}-${attempt}`,
      attempt,
      status,
      error: status === 'processed' ? null : 'boom',
      outputs: '[]',
      at: new Date(),
    });
    await db()('streams_deliveries').insert([
      delivery(dead, 1, 'dead'),
      delivery(deadAfterRetry, 1, 'failed'),
      delivery(deadAfterRetry, 2, 'dead'),
      delivery(revived, 1, 'dead'),
      delivery(revived, 2, 'processed'),
      delivery(replayed, 1, 'dead'),
    ]);
    expect((await tk.request('POST', `/messages/${replayed}/replay`, { body: {} })).status).to.equal(201);
    // As a database from before the migration: no dead-letter rows, then the migration runs.
    // (Migration 007 replaced the nats index 005 reads: back before it too, and forward again after.)
    await (createMessageRuns.down as NonNullable<typeof createMessageRuns.down>)(db());
    await (createDeadLetters.down as NonNullable<typeof createDeadLetters.down>)(db());
    await createDeadLetters.up(db());
    await createMessageRuns.up(db());
    const legacy = (await db()('streams_dead_letters')
      .where({ tenant_id: 'default', workflow: 'legacy' })
      .orderBy('message_id')
      .pluck('message_id')) as string[];
    expect(legacy).to.deep.equal([dead, deadAfterRetry].sort());
    expect((await db()('streams_dead_letters').where({ tenant_id: 'default', workflow: 'sorter' })).length).to.equal(0);
    expect(await dlqDepth.measure(db(), 'default', { workflow: 'legacy' }, new Date())).to.deep.equal([
      { labels: { workflow: 'legacy' }, value: 2 },
    ]);
  });
});
