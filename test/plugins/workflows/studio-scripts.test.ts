import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createStream, deploy, publish, readAll } from './support.js';
import { until } from '../../support/poll.js';

/**
 * `script` steps whose files are a studio workspace's (`{workspace_id, revision?, entry?}`),
 * read through the studio's `studio.workspace-files` contribution: a pinned revision runs those
 * files whatever the workspace becomes; an unpinned one runs the current revision as the worker
 * builds the step.
 */
describe('workflows: script steps from a studio workspace', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'studio'],
      auth: { mode: 'none' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
    });
    for (const s of ['ws-in', 'ws-pinned', 'ws-current']) await createStream(tk, s);
    const created = await tk.request('POST', '/studio/workspaces', {
      body: {
        id: 'pricing',
        name: 'Pricing',
        files: {
          'lib/tax.js': 'export const rate = 0.2;\n',
          'main.js':
            "import { rate } from './lib/tax.js';\nconst v = service.json.decode(input.body);\nservice.route.push({ net: v.net, gross: v.net * (1 + rate), version: 1 });\n",
        },
      },
    });
    expect(created.status, created.text).to.equal(201);
    const revised = await tk.request('PUT', '/studio/workspaces/pricing/files', {
      body: { files: { 'lib/tax.js': 'export const rate = 0.5;\n', 'alt.js': 'service.route.push({ alt: true });\n' } },
    });
    expect(revised.status, revised.text).to.equal(200);
    expect((await tk.request('GET', '/studio/workspaces/pricing')).body.revision).to.equal(2);
  });
  after(() => tk?.close());

  const workflow = (id: string, config: Record<string, unknown>, out: string) => ({
    id,
    name: id,
    input: { stream: 'ws-in' },
    steps: [{ type: 'script', config }],
    sinks: [{ type: 'stream.publish', config: { stream: out } }],
  });

  it("runs the pinned revision's files, and the current revision's when none is pinned", async () => {
    for (const [id, config, out] of [
      ['pinned', { workspace_id: 'pricing', revision: 1 }, 'ws-pinned'],
      ['current', { workspace_id: 'pricing' }, 'ws-current'],
    ] as const) {
      const res = await tk.request('POST', '/workflows', { body: workflow(id, config, out) });
      expect(res.status, res.text).to.equal(201);
      await deploy(tk, id, `deploy-${id}`);
    }
    const [id] = await publish(tk, 'ws-in', [{ value: { net: 100 } }]);
    const pinned = await until(async () => (await readAll(tk, 'ws-pinned'))[0], 30_000, { what: 'the pinned output' });
    const current = await until(async () => (await readAll(tk, 'ws-current'))[0], 30_000, {
      what: 'the current output',
    });
    expect(pinned.value).to.deep.equal({ net: 100, gross: 120, version: 1 });
    expect(current.value).to.deep.equal({ net: 100, gross: 150, version: 1 });
    expect(pinned.headers['x-workflow-source']).to.equal(id);
    const message = await tk.request('GET', `/messages/${id}`);
    expect(message.body.deliveries.map((d: any) => [d.workflow, d.status]).sort()).to.deep.equal([
      ['current', 'processed'],
      ['pinned', 'processed'],
    ]);

    // A replay builds the step again (inside the replay's transaction): the pinned files still.
    const [run] = (await tk.request('GET', '/workflows/pinned/runs')).body.items;
    const replay = await tk.request('POST', `/workflows/pinned/runs/${run.id}/replay`, {
      body: { request_id: 'replay-pinned' },
    });
    expect(replay.status, replay.text).to.equal(201);
    expect(replay.body).to.include({ replay_of: run.id, status: 'processed', message_id: id });
    expect((await readAll(tk, 'ws-pinned')).map((m: any) => m.value.gross)).to.deep.equal([120, 120]);
  });

  it('runs another entry of the workspace', async () => {
    const res = await tk.request('POST', '/workflows', {
      body: {
        ...workflow('alt', { workspace_id: 'pricing', entry: 'alt.js' }, 'ws-current'),
        input: { stream: 'ws-pinned' },
      },
    });
    expect(res.status, res.text).to.equal(201);
    await deploy(tk, 'alt', 'deploy-alt');
    const outputs = await until(
      async () => (await readAll(tk, 'ws-current')).filter((m: any) => m.value.alt === true)[0],
      30_000,
      { what: 'the alt output' },
    );
    expect(outputs.value).to.deep.equal({ alt: true });
  });

  it('refuses, naming the field, a workspace that does not exist in the tenant, a revision it does not have and an entry that is not its file', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ workspace_id: 'nope' }, '/steps/0/config/workspace_id'],
      [{ workspace_id: 'pricing', revision: 9 }, '/steps/0/config/revision'],
      [{ workspace_id: 'pricing', revision: 1, entry: 'alt.js' }, '/steps/0/config/entry'],
      [{ workspace_id: 'pricing', source: 'x' }, '/steps/0/config'],
      [{ workspace_id: 'pricing', revision: 2 ** 53 - 1 }, '/steps/0/config/revision'],
      [{ workspace_id: 'pri\u0000cing' }, '/steps/0/config/workspace_id'],
    ];
    for (const [config, pointer] of cases) {
      const res = await tk.request('POST', '/workflows', { body: workflow('bad', config, 'ws-pinned') });
      expect(res.status, `${pointer}: ${res.text}`).to.equal(400);
      expect(res.body.error.details[0].pointer, res.text).to.equal(pointer);
    }
    // Another tenant's workspace of the same id is not this tenant's.
    await tk.kernel.database
      .knex('studio_workspaces')
      .where({ tenant_id: 'default', id: 'pricing' })
      .update({ tenant_id: 'other-tenant' });
    try {
      const res = await tk.request('POST', '/workflows', {
        body: workflow('bad', { workspace_id: 'pricing', revision: 1 }, 'ws-pinned'),
      });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.details[0].pointer).to.equal('/steps/0/config/workspace_id');
    } finally {
      await tk.kernel.database
        .knex('studio_workspaces')
        .where({ tenant_id: 'other-tenant', id: 'pricing' })
        .update({ tenant_id: 'default' });
    }
    expect(
      await tk.kernel.database.knex('workflows_workflows').where({ tenant_id: 'default', id: 'bad' }),
    ).to.have.length(0);
  });
});
