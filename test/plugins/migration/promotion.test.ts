import { expect } from 'chai';
import { contribute, coreServices, createPlugin } from '../../../kernel/plugin/api.js';
import { contentHash } from '../../../plugins/migration/bundle.js';
import { componentTypes } from '../../../plugins/components/contract.js';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';

const ORDER_V1 = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'total', type: 'double' },
  ],
};
/** Drops `total`, which has no default: data written with v1 no longer reads the same (incompatible). */
const ORDER_BROKEN = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'note', type: 'string' },
  ],
};

/** A component type with a secret field (`password`, sealed apart), as the connectors' types have. */
const shipperType = createPlugin({
  id: 'shipper-type',
  manifest: { id: 'shipper-type', version: '1.0.0', summary: 'a component type with an x-secret field', routes: [] },
  deps: { clock: coreServices.clock },
  setup() {
    return {
      handlers: {},
      contributions: [
        contribute(componentTypes, {
          name: 'shipper',
          kind: 'processor',
          config_schema: {
            type: 'object',
            additionalProperties: false,
            properties: { url: { type: 'string' }, password: { type: 'string', 'x-secret': true } },
          },
          create: () => ({ process: async (message: unknown) => [message] }),
        } as never),
      ],
    };
  },
});

/** A workspace whose one test passes; `broken` makes it fail (the bundle's exact files are tested). */
function workspaceFiles(broken = false): Record<string, string> {
  return {
    'main.js': `const v = service.json.decode(input.body);\nresult = { doubled: v.a * ${broken ? 3 : 2} };\n`,
    'tests/doubles.json': JSON.stringify({ input: { value: { a: 2 } }, expect: { result: { doubled: 4 } } }),
  };
}

describe('migration: export, plan and apply with the promotion gate', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel(
      {
        plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'studio', 'migration'],
        auth: { mode: 'none' },
        settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
      },
      { plugins: [shipperType] },
    );
  });
  after(() => tk?.close());

  async function post(path: string, tenant: string, body: Record<string, unknown>): Promise<HttpResult> {
    return tk.request('POST', path, { body: { tenant_id: tenant, ...body } });
  }

  async function seed(
    tenant: string,
    options: {
      codecSchema?: unknown;
      extraStream?: string;
      component?: Record<string, unknown>;
      workspaceBroken?: boolean;
    } = {},
  ): Promise<void> {
    expect(
      (
        await post('/codecs', tenant, {
          id: 'orders',
          name: 'orders',
          kind: 'avro',
          schema: options.codecSchema ?? ORDER_V1,
        })
      ).status,
    ).to.equal(201);
    expect(
      (
        await post('/streams', tenant, {
          id: 'orders',
          name: 'Orders',
          partitions: 3,
          codec: 'orders',
          retention: { max_age_hours: 24 },
        })
      ).status,
    ).to.equal(201);
    const component = await post('/components', tenant, {
      type: 'shipper',
      id: 'shipper',
      name: 'Shipper',
      config: { url: 'https://ship.example' },
      ...(options.component ?? {}),
    });
    expect(component.status, component.text).to.equal(201);
    const workflow = await post('/workflows', tenant, {
      id: 'enrich',
      name: 'Enrich',
      input: { stream: 'orders' },
      steps: [{ type: 'json.transform', config: { set: { seen: true } } }],
      sinks: [{ type: 'log', config: {} }],
    });
    expect(workflow.status, workflow.text).to.equal(201);
    const workspace = await post('/studio/workspaces', tenant, {
      id: 'doubler',
      name: 'Doubler',
      files: workspaceFiles(options.workspaceBroken),
    });
    expect(workspace.status, workspace.text).to.equal(201);
    if (options.extraStream)
      expect((await post('/streams', tenant, { id: options.extraStream, name: options.extraStream })).status).to.equal(
        201,
      );
  }

  async function exported(tenant: string): Promise<any> {
    const res = await post('/migration/exports', tenant, {});
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  async function plan(bundle: unknown, target: string, from = 'src'): Promise<any> {
    const res = await post('/migration/plans', from, { bundle, target_tenant_id: target });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  const apply = (planId: string, requestId: string, extra: Record<string, unknown> = {}, from = 'src') =>
    post(`/migration/plans/${planId}/apply`, from, { request_id: requestId, ...extra });

  it('exports a content-hashed bundle and reproduces every resource in an empty tenant; one request_id applies once', async () => {
    await seed('src');
    const bundle = await exported('src');
    expect(bundle.hash).to.equal(contentHash(bundle.resources));
    expect(Object.keys(bundle.resources).sort()).to.deep.equal([
      'codecs',
      'components',
      'streams',
      'workflows',
      'workspaces',
    ]);

    const made = await plan(bundle, 'dst');
    expect(made.diff.create).to.deep.include.members([
      { kind: 'codecs', id: 'orders' },
      { kind: 'streams', id: 'orders' },
      { kind: 'components', id: 'shipper' },
      { kind: 'workflows', id: 'enrich' },
      { kind: 'workspaces', id: 'doubler' },
    ]);
    expect(made.diff.update).to.deep.equal([]);
    expect(made.diff.delete).to.deep.equal([]);
    expect(made.gate.map((c: any) => c.check).sort()).to.deep.equal([
      'codec_compatibility',
      'no_destructive',
      'no_drift',
      'secrets_present',
      'workspace_tests',
    ]);
    expect(made.gate.every((c: any) => c.ok)).to.equal(true);

    const first = await apply(made.id, 'promote-1');
    expect(first.status, first.text).to.equal(200);
    expect(first.body.applied).to.deep.equal({ create: 5, update: 0, delete: 0 });
    expect(made.gate.find((c: any) => c.check === 'workspace_tests').detail).to.match(
      /1 test case\(s\) of 1 workspace\(s\) passed/,
    );
    const again = await apply(made.id, 'promote-1');
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    expect((await apply(made.id, 'promote-2')).status).to.equal(409);

    const copy = await exported('dst');
    expect(copy.resources).to.deep.equal(bundle.resources);
    expect(copy.hash).to.equal(bundle.hash);
    expect((await db()('codecs_revisions').where({ tenant_id: 'dst', codec_id: 'orders' })).length).to.equal(1);
    expect((await db()('streams_partitions').where({ tenant_id: 'dst' })).length).to.equal(3);
    // The workflow arrives as a draft at revision 1; the workspace with its files, and its tests pass there.
    expect((await tk.request('GET', '/workflows/enrich?tenant_id=dst')).body).to.include({
      state: 'draft',
      revision: 1,
      name: 'Enrich',
    });
    expect((await tk.request('GET', '/studio/workspaces/doubler/files?tenant_id=dst')).body.files).to.deep.equal(
      workspaceFiles(),
    );
    const tested = await post('/studio/workspaces/doubler/test', 'dst', {});
    expect(tested.body, tested.text).to.include({ passed: 1, failed: 0 });
    const published = await post('/streams/orders/messages', 'dst', {
      messages: [{ value: { id: 'o1', total: 2.5 } }],
    });
    expect(published.status, published.text).to.equal(201);
    // One audit record per call (the first, its replay and the refused one), one effect.
    expect(
      (await db()('audit_records').where({ tenant_id: 'src', operation: 'applyPlan' }))
        .map((r: any) => r.status)
        .sort(),
    ).to.deep.equal([200, 200, 409]);
  });

  it('refuses a bundle whose hash does not match its content with 400', async () => {
    const bundle = await exported('src');
    bundle.resources.components[0].content.name = 'tampered';
    const res = await post('/migration/plans', 'src', { bundle, target_tenant_id: 'dst' });
    expect(res.status).to.equal(400);
    expect(res.body.error.details[0].pointer).to.equal('/bundle/hash');
    expect(await db()('migration_plans').where({ target_tenant_id: 'dst' })).to.have.length(1);
  });

  async function refusedAlone(
    target: string,
    bundle: unknown,
    check: string,
    afterPlan?: () => Promise<void>,
  ): Promise<void> {
    const made = await plan(bundle, target);
    await afterPlan?.();
    const before = await exported(target);
    const res = await apply(made.id, `refused-${check}`);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.code).to.equal('promotion_gate_failed');
    expect(res.body.error.details.map((d: any) => d.pointer)).to.deep.equal([`/gate/${check}`]);
    expect((await exported(target)).resources).to.deep.equal(before.resources);
  }

  it("refuses with 422 naming codec_compatibility when a codec schema breaks the target's", async () => {
    await seed('compat-src', { codecSchema: ORDER_BROKEN });
    await seed('compat-dst');
    await refusedAlone('compat-dst', await exported('compat-src'), 'codec_compatibility');
  });

  it("exports x-secret fields as placeholders, refuses with 422 naming secrets_present when the target has no value, and keeps the target's sealed value otherwise", async () => {
    await seed('secret-src', { component: { config: { url: 'https://new.example', password: 'source-secret' } } });
    const bundle = await exported('secret-src');
    expect(bundle.resources.components[0].content.config).to.deep.equal({
      url: 'https://new.example',
      password: { $secret: 'shipper:/password' },
    });
    expect(JSON.stringify(bundle)).to.not.include('source-secret');
    await seed('secret-dst');
    await refusedAlone('secret-dst', bundle, 'secrets_present');
    await seed('secret-ok', { component: { config: { url: 'https://old.example', password: 'target-secret' } } });
    const sealed = await db()('components').where({ tenant_id: 'secret-ok', id: 'shipper' }).first('secrets');
    const made = await plan(bundle, 'secret-ok', 'secret-src');
    expect(made.diff.update).to.deep.equal([{ kind: 'components', id: 'shipper' }]);
    expect((await apply(made.id, 'secret-ok-1', {}, 'secret-src')).status).to.equal(200);
    const row = await db()('components').where({ tenant_id: 'secret-ok', id: 'shipper' }).first();
    expect(row.config).to.deep.equal({ url: 'https://new.example' });
    expect(row.secrets).to.equal(sealed.secrets);
    expect(row.secret_fields).to.deep.equal(['password']);
  });

  it('refuses with 422 naming no_destructive a plan that deletes, unless allow_destructive', async () => {
    await seed('destructive-dst', { extraStream: 'legacy' });
    const bundle = await exported('src');
    await refusedAlone('destructive-dst', bundle, 'no_destructive');
    const made = await plan(bundle, 'destructive-dst');
    expect(made.diff.delete).to.deep.equal([{ kind: 'streams', id: 'legacy' }]);
    const res = await apply(made.id, 'destructive-ok', { allow_destructive: true });
    expect(res.status, res.text).to.equal(200);
    expect(await db()('streams_streams').where({ tenant_id: 'destructive-dst', id: 'legacy' })).to.have.length(0);
  });

  it('refuses with 422 naming no_drift when the target changed after the plan', async () => {
    await seed('drift-dst');
    await refusedAlone('drift-dst', await exported('src'), 'no_drift', async () => {
      await db()('components').where({ tenant_id: 'drift-dst', id: 'shipper' }).update({ name: 'changed meanwhile' });
    });
  });

  it("refuses with 422 naming workspace_tests when a workspace's tests fail on the bundle's exact files (run in the sandbox)", async () => {
    await seed('tests-src', { workspaceBroken: true });
    const bundle = await exported('tests-src');
    const made = await plan(bundle, 'tests-dst', 'tests-src');
    const check = made.gate.find((c: any) => c.check === 'workspace_tests');
    expect(check).to.include({ ok: false });
    expect(check.detail).to.include(bundle.hash).and.to.include('doubler (doubles)');
    const res = await apply(made.id, 'refused-workspace-tests', {}, 'tests-src');
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.details.map((d: any) => d.pointer)).to.deep.equal(['/gate/workspace_tests']);
    expect(await db()('studio_workspaces').where({ tenant_id: 'tests-dst' })).to.have.length(0);
  });
});
