import { expect } from 'chai';
import { contribute, coreServices, createPlugin } from '../../../kernel/plugin/api.js';
import { componentTypes } from '../../../plugins/components/contract.js';
import { contentHash } from '../../../plugins/migration/bundle.js';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';

/**
 * A processor type with a plain `url` and a secret `password`: it stamps both on each message,
 * so what the target's running component was configured with is visible in its output.
 */
const stamperType = createPlugin({
  id: 'stamper-type',
  manifest: { id: 'stamper-type', version: '1.0.0', summary: 'a processor with an x-secret field', routes: [] },
  deps: { clock: coreServices.clock },
  setup() {
    return {
      handlers: {},
      contributions: [
        contribute(componentTypes, {
          name: 'stamper',
          kind: 'processor',
          config_schema: {
            type: 'object',
            additionalProperties: false,
            properties: { url: { type: 'string' }, password: { type: 'string', 'x-secret': true } },
          },
          create: (config) => ({
            process: async (message) => [
              { ...message, value: { ...(message.value as object), url: config.url, password: config.password } },
            ],
          }),
        }),
        // A source that appends one message naming the topic it was started with.
        contribute(componentTypes, {
          name: 'topic-echo',
          kind: 'source',
          config_schema: { type: 'object', additionalProperties: false, properties: { topic: { type: 'string' } } },
          create: (config) => ({
            start: async (context) => {
              await context.emit({
                body: Buffer.from(JSON.stringify({ topic: config.topic })),
                content_type: 'application/json',
              });
            },
          }),
        }),
      ],
    };
  },
});

/** `${var:NAME}`, written so no string literal looks like a mistyped template. */
const ref = (name: string): string => `$\{var:${name}}`;

/**
 * Issue 23 item 7: custom roles join the bundle; per-environment values stay the target's
 * (tenant variables, `${var:NAME}`); a missing secret is named in the plan and sent with the apply.
 */
describe('migration: custom roles, tenant variables and secrets sent with the apply', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel(
      {
        plugins: [
          'system',
          'identity',
          'audit',
          'logs',
          'variables',
          'components',
          'codecs',
          'streams',
          'workflows',
          'migration',
        ],
        settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
      },
      { plugins: [stamperType] },
    );
    admin = await loginAdmin(tk);
    for (const tenant of ['staging', 'prod', 'roles-prod', 'bare']) await createTenant(tk, admin, tenant);
  });
  after(() => tk?.close());

  async function call(method: string, path: string, tenant: string, body?: Record<string, unknown>) {
    return method === 'GET' || method === 'DELETE'
      ? tk.request(method, `${path}${path.includes('?') ? '&' : '?'}tenant_id=${tenant}`, { token: admin })
      : tk.request(method, path, { token: admin, body: { tenant_id: tenant, ...(body ?? {}) } });
  }

  async function exported(tenant: string, include: string[]): Promise<any> {
    const res = await call('POST', '/migration/exports', tenant, { include });
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  async function plan(bundle: unknown, target: string, from = 'staging', token = admin): Promise<any> {
    const res = await tk.request('POST', '/migration/plans', {
      token,
      body: { tenant_id: from, bundle, target_tenant_id: target },
    });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  const check = (made: any, name: string) => made.gate.find((c: any) => c.check === name);

  it('carries custom roles (never built-in ones) with a dry-run diff, and refuses a role granting what the actor does not hold', async () => {
    const made = await call('POST', '/roles', 'staging', {
      id: 'release-reader',
      description: 'reads workflows and streams',
      permissions: ['runtime:workflow:read', 'runtime:stream:read'],
    });
    expect(made.status, made.text).to.equal(201);
    const bundle = await exported('staging', ['roles']);
    expect(bundle.resources.roles.map((r: any) => r.id)).to.deep.equal(['release-reader']);
    const planned = await plan(bundle, 'roles-prod');
    expect(planned.diff.create).to.deep.include({ kind: 'roles', id: 'release-reader' });
    expect(check(planned, 'roles_grantable').ok).to.equal(true);
    // The plan is a dry run: nothing arrived yet.
    const before = await call('GET', '/roles', 'roles-prod');
    expect(before.body.items.map((r: any) => r.id)).to.not.include('release-reader');
    const applied = await call('POST', `/migration/plans/${planned.id}/apply`, 'staging', { request_id: 'roles-1' });
    expect(applied.status, applied.text).to.equal(200);
    const roles = await call('GET', '/roles', 'roles-prod');
    const role = roles.body.items.find((r: any) => r.id === 'release-reader');
    expect(role).to.include({ built_in: false, description: 'reads workflows and streams' });
    expect(role.permissions).to.deep.equal(['runtime:stream:read', 'runtime:workflow:read']);

    // A tenant admin planning within its own tenant may not hand out the account-wide permission
    // it does not hold, nor a permission nothing here declares.
    const prodAdmin = await mintToken(tk, admin, ['admin'], { tenantId: 'roles-prod' });
    const own = (await tk.request('POST', '/migration/exports', { token: prodAdmin, body: { include: ['roles'] } }))
      .body;
    const resources = {
      roles: [
        ...own.resources.roles,
        { id: 'escalate', content: { description: '', permissions: ['runtime:account:admin', 'runtime:nope:write'] } },
      ],
    };
    const forged = { ...own, resources, hash: contentHash(resources) };
    const refused = await plan(forged, 'roles-prod', 'roles-prod', prodAdmin);
    const grantable = check(refused, 'roles_grantable');
    expect(grantable.ok).to.equal(false);
    expect(grantable.detail).to.include('runtime:account:admin, which you do not hold');
    expect(grantable.detail).to.include('runtime:nope:write, which no enabled plugin declares');
    const apply = await tk.request('POST', `/migration/plans/${refused.id}/apply`, {
      token: prodAdmin,
      body: { request_id: 'escalate-1' },
    });
    expect(apply.status, apply.text).to.equal(422);
    expect(apply.body.error.details.map((d: any) => d.pointer)).to.include('/gate/roles_grantable');
  });

  it("keeps variable references in the bundle, names the target's missing variables and secrets in the plan, seals secrets sent with the apply, and runs on the target's own values", async () => {
    const put = (tenant: string, name: string, value: string) => call('PUT', `/variables/${name}`, tenant, { value });
    expect((await put('staging', 'ROUTING_KEY', 'staging.orders')).status).to.equal(200);
    expect((await put('staging', 'SHIP_URL', 'https://staging.example')).status).to.equal(200);
    for (const id of ['in', 'out'])
      expect((await call('POST', '/streams', 'staging', { id, name: id })).status).to.equal(201);
    const component = await call('POST', '/components', 'staging', {
      type: 'stamper',
      id: 'stamper',
      name: 'Stamper',
      config: { url: `${ref('SHIP_URL')}/ship`, password: 'staging-secret' },
    });
    expect(component.status, component.text).to.equal(201);
    const workflow = await call('POST', '/workflows', 'staging', {
      id: 'route',
      name: 'Route',
      input: { stream: 'in' },
      steps: [{ type: 'json.transform', config: { set: { route: ref('ROUTING_KEY') } } }, { component: 'stamper' }],
      sinks: [{ type: 'stream.publish', config: { stream: 'out' } }],
    });
    expect(workflow.status, workflow.text).to.equal(201);

    const bundle = await exported('staging', ['streams', 'components', 'workflows']);
    const text = JSON.stringify(bundle);
    expect(text)
      .to.include(ref('ROUTING_KEY'))
      .and.include(`${ref('SHIP_URL')}/ship`);
    expect(text).to.not.include('staging.orders').and.not.include('staging-secret');

    // The target lacks both variables and the secret: the plan names each and says how to supply it.
    const first = await plan(bundle, 'prod');
    expect(check(first, 'variables_present')).to.include({ ok: false });
    expect(check(first, 'variables_present').missing).to.deep.equal(['ROUTING_KEY', 'SHIP_URL']);
    expect(check(first, 'variables_present').detail).to.include('PUT /variables/{name}');
    const secrets = check(first, 'secrets_present');
    expect(secrets).to.include({ ok: false });
    expect(secrets.missing).to.deep.equal(['stamper:/password']);
    expect(secrets.detail).to.include('"secrets": {"stamper:/password"');

    expect((await put('prod', 'ROUTING_KEY', 'prod.orders')).status).to.equal(200);
    expect((await put('prod', 'SHIP_URL', 'https://prod.example')).status).to.equal(200);
    const second = await plan(bundle, 'prod');
    expect(check(second, 'variables_present').ok).to.equal(true);
    expect(check(second, 'secrets_present').ok).to.equal(false);
    const apply = (requestId: string, extra: Record<string, unknown>) =>
      call('POST', `/migration/plans/${second.id}/apply`, 'staging', { request_id: requestId, ...extra });
    const without = await apply('prod-0', {});
    expect(without.status, without.text).to.equal(422);
    expect(without.body.error.details.map((d: any) => d.pointer)).to.deep.equal(['/gate/secrets_present']);
    const stray = await apply('prod-1', { secrets: { 'stamper:/password': 'x', 'other:/token': 'y' } });
    expect(stray.status, stray.text).to.equal(400);
    expect(stray.body.error.details.map((d: any) => d.pointer)).to.deep.equal(['/secrets/other:~1token']);
    const misfit = await apply('prod-m', { secrets: { 'stamper:/password': 42 } });
    expect(misfit.status, misfit.text).to.equal(400);
    expect(misfit.body.error.details.map((d: any) => d.pointer)).to.deep.equal(['/secrets/stamper:~1password']);
    expect((await call('GET', '/components/stamper', 'prod')).status).to.equal(404);
    const applied = await apply('prod-2', { secrets: { 'stamper:/password': 'prod-secret' } });
    expect(applied.status, applied.text).to.equal(200);
    for (const tenant of ['staging', 'prod']) {
      const audit = await call('GET', '/audit?operation=applyPlan', tenant);
      expect(audit.body.items.length, tenant).to.be.greaterThan(0);
      expect(JSON.stringify(audit.body)).to.not.include('prod-secret');
    }

    // The target holds the references, not values; the sealed secret is its own.
    const shown = await call('GET', '/components/stamper', 'prod');
    expect(shown.body.config).to.deep.equal({ url: `${ref('SHIP_URL')}/ship` });
    expect(shown.body.secrets_set).to.deep.equal(['password']);
    expect((await call('GET', '/variables', 'prod')).body.items.map((v: any) => [v.name, v.value])).to.deep.equal([
      ['ROUTING_KEY', 'prod.orders'],
      ['SHIP_URL', 'https://prod.example'],
    ]);

    // Deployed and run on the target: every reference is the target's value.
    expect((await call('POST', '/components/stamper/start', 'prod', {})).status).to.be.oneOf([200, 202]);
    const deployed = await call('POST', '/workflows/route/deploy', 'prod', { request_id: 'deploy-prod' });
    expect(deployed.status, deployed.text).to.equal(200);
    const published = await call('POST', '/streams/in/messages', 'prod', { messages: [{ value: { n: 1 } }] });
    expect(published.status, published.text).to.equal(201);
    const out = await until(async () => (await call('GET', '/streams/out/messages', 'prod')).body.items[0], 30_000, {
      what: 'the routed message in prod',
    });
    expect(out.value).to.deep.equal({
      n: 1,
      route: 'prod.orders',
      url: 'https://prod.example/ship',
      password: 'prod-secret',
    });

    // A variable still referred to is not deleted: 409 naming who refers to it, and where.
    const inUseByComponent = await call('DELETE', '/variables/SHIP_URL', 'prod');
    expect(inUseByComponent.status, inUseByComponent.text).to.equal(409);
    expect(inUseByComponent.body.error.message).to.include('component "stamper" (config /url)');
    const inUseByWorkflow = await call('DELETE', '/variables/ROUTING_KEY', 'prod');
    expect(inUseByWorkflow.status, inUseByWorkflow.text).to.equal(409);
    expect(inUseByWorkflow.body.error.message).to.include('workflow "route" (/steps/0/config/set/route)');
  });

  it('refuses to deploy a workflow referring to a variable its tenant lacks (400 naming it)', async () => {
    expect((await call('POST', '/streams', 'bare', { id: 'in', name: 'in' })).status).to.equal(201);
    const made = await call('POST', '/workflows', 'bare', {
      id: 'route',
      name: 'Route',
      input: { stream: 'in' },
      steps: [{ type: 'json.transform', config: { set: { route: ref('ROUTING_KEY') } } }],
      sinks: [{ type: 'log', config: {} }],
    });
    expect(made.status, made.text).to.equal(201);
    const deployed = await call('POST', '/workflows/route/deploy', 'bare', { request_id: 'deploy-bare' });
    expect(deployed.status, deployed.text).to.equal(400);
    expect(deployed.body.error.message).to.include('ROUTING_KEY');
    expect(deployed.body.error.details[0].message).to.include('/steps/0/config/set/route');
    expect((await call('DELETE', '/variables/NOPE', 'bare')).status).to.equal(404);
  });

  it("starts a source with its tenant's value, and fails it naming a variable its tenant lacks until it is set", async () => {
    expect((await call('POST', '/streams', 'bare', { id: 'topics', name: 'topics' })).status).to.equal(201);
    const made = await call('POST', '/components', 'bare', {
      type: 'topic-echo',
      id: 'echo',
      name: 'Echo',
      stream: 'topics',
      config: { topic: `sensors/${ref('SITE')}/temperature` },
    });
    expect(made.status, made.text).to.equal(201);
    expect((await call('POST', '/components/echo/start', 'bare', {})).status).to.be.oneOf([200, 202]);
    const failed = await until(
      async () => {
        const c = (await call('GET', '/components/echo', 'bare')).body;
        return c.status.state === 'failed' && c;
      },
      30_000,
      { what: 'the source failed' },
    );
    expect(failed.status.last_error).to.include('SITE').and.include('not set');
    const logs = (await call('GET', '/logs?level=error', 'bare')).body.items as any[];
    expect(logs.some((l) => String(l.message).includes('SITE'))).to.equal(true);

    expect((await call('PUT', '/variables/SITE', 'bare', { value: 'lyon' })).status).to.equal(200);
    const echoed = await until(
      async () => (await call('GET', '/streams/topics/messages', 'bare')).body.items[0],
      30_000,
      { what: 'the source running with the variable set' },
    );
    expect(echoed.value, JSON.stringify(echoed)).to.deep.equal({ topic: 'sensors/lyon/temperature' });
  });
});
