import { expect } from 'chai';
import { contribute, coreServices, createPlugin } from '../../../kernel/plugin/api.js';
import { contentHash } from '../../../plugins/migration/bundle.js';
import { migrationChecks } from '../../../plugins/migration/contract.js';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';

const ORDER_V1 = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, { name: 'total', type: 'double' }] };
/** Drops `total`, which has no default: data written with v1 no longer reads the same (incompatible). */
const ORDER_BROKEN = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, { name: 'note', type: 'string' }] };

/** Stands in for the studio plugin: a workspace_tests check that fails for bundles holding a component named "untested". */
const workspaceTests = createPlugin({
  id: 'workspace-tests-stand-in',
  manifest: { id: 'workspace-tests-stand-in', version: '1.0.0', summary: 'a workspace_tests gate check', routes: [] },
  deps: { clock: coreServices.clock },
  setup() {
    return {
      handlers: {},
      contributions: [
        contribute(migrationChecks, {
          check: 'workspace_tests',
          async run(_db, bundle) {
            const untested = (bundle.resources.components ?? []).some((c) => c.content.name === 'untested');
            return { check: 'workspace_tests', ok: !untested, detail: untested ? `workspace tests failed on ${bundle.hash}` : `workspace tests passed on ${bundle.hash}` };
          },
        }),
      ],
    };
  },
});

describe('migration: export, plan and apply with the promotion gate', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'components', 'codecs', 'streams', 'migration'], auth: { mode: 'none' } }, { plugins: [workspaceTests] });
  });
  after(() => tk?.close());

  async function post(path: string, tenant: string, body: Record<string, unknown>): Promise<HttpResult> {
    return tk.request('POST', path, { body: { tenant_id: tenant, ...body } });
  }

  async function seed(tenant: string, options: { codecSchema?: unknown; extraStream?: string; component?: Record<string, unknown> } = {}): Promise<void> {
    expect((await post('/codecs', tenant, { id: 'orders', name: 'orders', kind: 'avro', schema: options.codecSchema ?? ORDER_V1 })).status).to.equal(201);
    expect((await post('/streams', tenant, { id: 'orders', name: 'Orders', partitions: 3, codec: 'orders', retention: { max_age_hours: 24 } })).status).to.equal(201);
    expect((await post('/components', tenant, { id: 'shipper', name: 'Shipper', config: { url: 'https://ship.example', password: 'p4ss' }, ...(options.component ?? {}) })).status).to.equal(201);
    if (options.extraStream) expect((await post('/streams', tenant, { id: options.extraStream, name: options.extraStream })).status).to.equal(201);
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

  const apply = (planId: string, requestId: string, extra: Record<string, unknown> = {}, from = 'src') => post(`/migration/plans/${planId}/apply`, from, { request_id: requestId, ...extra });

  function withContent(bundle: any, change: (resources: any) => void): any {
    const copy = JSON.parse(JSON.stringify(bundle));
    change(copy.resources);
    copy.hash = contentHash(copy.resources);
    return copy;
  }

  it('exports a content-hashed bundle and reproduces every resource in an empty tenant; one request_id applies once', async () => {
    await seed('src');
    const bundle = await exported('src');
    expect(bundle.hash).to.equal(contentHash(bundle.resources));
    expect(Object.keys(bundle.resources).sort()).to.deep.equal(['codecs', 'components', 'streams']);

    const made = await plan(bundle, 'dst');
    expect(made.diff.create).to.deep.include.members([{ kind: 'codecs', id: 'orders' }, { kind: 'streams', id: 'orders' }, { kind: 'components', id: 'shipper' }]);
    expect(made.diff.update).to.deep.equal([]);
    expect(made.diff.delete).to.deep.equal([]);
    expect(made.gate.map((c: any) => c.check).sort()).to.deep.equal(['codec_compatibility', 'no_destructive', 'no_drift', 'secrets_present', 'workspace_tests']);
    expect(made.gate.every((c: any) => c.ok)).to.equal(true);

    const first = await apply(made.id, 'promote-1');
    expect(first.status, first.text).to.equal(200);
    expect(first.body.applied).to.deep.equal({ create: 3, update: 0, delete: 0 });
    const again = await apply(made.id, 'promote-1');
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    expect((await apply(made.id, 'promote-2')).status).to.equal(409);

    const copy = await exported('dst');
    expect(copy.resources).to.deep.equal(bundle.resources);
    expect(copy.hash).to.equal(bundle.hash);
    expect((await db()('codecs_revisions').where({ tenant_id: 'dst', codec_id: 'orders' })).length).to.equal(1);
    expect((await db()('streams_partitions').where({ tenant_id: 'dst' })).length).to.equal(3);
    const published = await post('/streams/orders/messages', 'dst', { messages: [{ value: { id: 'o1', total: 2.5 } }] });
    expect(published.status, published.text).to.equal(201);
    // One audit record per call (the first, its replay and the refused one), one effect.
    expect((await db()('audit_records').where({ tenant_id: 'src', operation: 'applyPlan' })).map((r: any) => r.status).sort()).to.deep.equal([200, 200, 409]);
  });

  it('refuses a bundle whose hash does not match its content with 400', async () => {
    const bundle = await exported('src');
    bundle.resources.components[0].content.name = 'tampered';
    const res = await post('/migration/plans', 'src', { bundle, target_tenant_id: 'dst' });
    expect(res.status).to.equal(400);
    expect(res.body.error.details[0].pointer).to.equal('/bundle/hash');
    expect(await db()('migration_plans').where({ target_tenant_id: 'dst' })).to.have.length(1);
  });

  async function refusedAlone(target: string, bundle: unknown, check: string, afterPlan?: () => Promise<void>): Promise<void> {
    const made = await plan(bundle, target);
    await afterPlan?.();
    const before = await exported(target);
    const res = await apply(made.id, `refused-${check}`);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.code).to.equal('promotion_gate_failed');
    expect(res.body.error.details.map((d: any) => d.pointer)).to.deep.equal([`/gate/${check}`]);
    expect((await exported(target)).resources).to.deep.equal(before.resources);
  }

  it('refuses with 422 naming codec_compatibility when a codec schema breaks the target\'s', async () => {
    await seed('compat-src', { codecSchema: ORDER_BROKEN });
    await seed('compat-dst');
    await refusedAlone('compat-dst', await exported('compat-src'), 'codec_compatibility');
  });

  it('refuses with 422 naming secrets_present when a placeholder has no value on the target, and fills it from the target otherwise', async () => {
    const bundle = withContent(await exported('src'), (r) => {
      r.components[0].content.config.password = { $secret: 'shipper:/password' };
    });
    await seed('secret-dst', { component: { config: { url: 'https://ship.example' } } });
    await refusedAlone('secret-dst', bundle, 'secrets_present');
    await seed('secret-ok', { component: { config: { url: 'https://old.example', password: 'target-secret' } } });
    const made = await plan(bundle, 'secret-ok');
    expect((await apply(made.id, 'secret-ok-1')).status).to.equal(200);
    const row = await db()('components').where({ tenant_id: 'secret-ok', id: 'shipper' }).first();
    expect(row.config).to.deep.equal({ url: 'https://ship.example', password: 'target-secret' });
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

  it('refuses with 422 naming workspace_tests when a contributed workspace_tests check fails on the bundle', async () => {
    const bundle = withContent(await exported('src'), (r) => {
      r.components[0].content.name = 'untested';
    });
    await refusedAlone('tests-dst', bundle, 'workspace_tests');
  });
});
