import { expect } from 'chai';
import type { Manifest } from '../../../kernel/manifest/types.js';
import type { PluginDefinition } from '../../../kernel/types.js';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { loginAdmin } from '../../support/identity.js';
import { ALL_PLUGINS, operationsOf, type OpenApiDocument } from './served.js';

const BODY_REQUIRED = { in: 'body', pointer: '/', message: 'a JSON body is required' };

/** A plugin whose action has only optional fields but declares that a body must be sent. */
const insistent: Manifest = {
  id: 'insistent',
  version: '1.0.0',
  summary: 'A route that insists on a body',
  permissions: [{ name: 'test:insist:write', description: 'Insist' }],
  routes: [
    {
      operation: 'insist',
      method: 'POST',
      path: '/insist',
      permission: 'test:insist:write',
      category: 'test',
      read_only: false,
      tenancy: 'none',
      summary: 'Insist on a body',
      body: { type: 'object', additionalProperties: false, properties: { reason: { type: 'string' } } },
      body_required: true,
      response: { status: 200 },
      audit: { class: 'action' },
    },
  ],
};
const insistentPlugin: PluginDefinition = {
  id: 'insistent',
  manifest: insistent,
  setup: () => ({ handlers: { insist: () => ({ status: 200, body: {} }) } }),
};

const refusedForNoBody = (res: HttpResult): boolean =>
  res.status === 400 &&
  (res.body?.error?.details ?? []).some(
    (d: Record<string, unknown>) =>
      d.in === BODY_REQUIRED.in && d.pointer === BODY_REQUIRED.pointer && d.message === BODY_REQUIRED.message,
  );

describe('a call without a body', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let doc: OpenApiDocument;

  before(async () => {
    tk = await startKernel({ plugins: ALL_PLUGINS }, { plugins: [insistentPlugin] });
    admin = await loginAdmin(tk);
    doc = (await tk.request('GET', '/openapi.json', { token: admin })).body as OpenApiDocument;
  });
  after(() => tk?.close());

  it('is refused exactly where OpenAPI says the body is required, on every route of every plugin', async () => {
    const optional: string[] = [];
    const disagreements: string[] = [];
    for (const { method, path, op } of operationsOf(doc)) {
      const body = op.requestBody;
      if (!body?.content?.['application/json']) continue;
      const route = tk.kernel.catalog.byOperation(op.operationId);
      // Dry runs where the route takes them: the handler runs and nothing is kept.
      const query = route?.dryRunAllowed ? '?dry_run=true' : '';
      const concrete = path.replace(/\{([^}]+)\}/g, 'probe-$1');
      // fetch sends a body-less POST/PUT/PATCH with Content-Length: 0 and no Content-Type.
      // With the console's CSRF header and this origin, so the browser sign-in routes reach validation too.
      const res = await tk.request(method, `${concrete}${query}`, {
        token: admin,
        headers: { 'x-runtime-csrf': '1', origin: new URL(tk.url).origin },
      });
      const refused = refusedForNoBody(res);
      // 501 not_configured is a capability this deployment lacks (the agent without a provider), not a failure.
      if (res.status >= 500 && res.body?.error?.code !== 'not_configured')
        disagreements.push(`${method} ${path}: ${res.status}`);
      if (refused !== body.required)
        disagreements.push(
          `${method} ${path}: requestBody.required is ${body.required} but the call was ${refused ? '' : 'not '}refused for its missing body (${res.status} ${res.text.slice(0, 160)})`,
        );
      if (!body.required) optional.push(op.operationId);
    }
    expect(disagreements).to.deep.equal([]);
    expect(optional).to.include.members(['startComponent', 'stopComponent', 'restartComponent', 'pinNote']);
    expect(doc.paths['/insist']?.post.requestBody.required).to.equal(true);
    expect(doc.paths['/components']?.post.requestBody.required).to.equal(true);
    expect(doc.paths['/agent/mcp']?.post.requestBody.required).to.equal(true);
  });

  it('runs an action whose fields are all optional, as if the body were {}', async () => {
    expect(
      (await tk.request('POST', '/components', { token: admin, body: { type: 'passthrough', name: 'Bodiless' } }))
        .status,
    ).to.equal(201);
    // A processor runs from its creation: stopping it is the action with a state to change.
    const stopped = await tk.request('POST', '/components/bodiless/stop', { token: admin });
    expect(stopped.status, stopped.text).to.equal(200);
    expect(stopped.body).to.deep.include({ action: 'stop', previous_state: 'running' });
    const row = await tk.kernel.database.knex('components').where({ tenant_id: 'default', id: 'bodiless' }).first();
    expect(row.state).to.equal('stopped');

    expect(
      (await tk.request('POST', '/notes', { token: admin, body: { id: 'bodiless', title: 'Pin me' } })).status,
    ).to.equal(201);
    const pinned = await tk.request('POST', '/notes/bodiless/pin', {
      token: admin,
      headers: { 'content-length': '0' },
    });
    expect(pinned.status, pinned.text).to.equal(200);
    expect(
      (await tk.kernel.database.knex('notes').where({ tenant_id: 'default', id: 'bodiless' }).first()).pinned,
    ).to.equal(true);
  });

  it('still validates what is sent, and still refuses a body-less call where a field is required', async () => {
    const wrong = await tk.request('POST', '/components/bodiless/stop', { token: admin, body: { reason: 5 } });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error.details[0]).to.include({ in: 'body', pointer: '/reason' });
    const create = await tk.request('POST', '/components', { token: admin });
    expect(refusedForNoBody(create)).to.equal(true);
    const insist = await tk.request('POST', '/insist', { token: admin });
    expect(refusedForNoBody(insist)).to.equal(true);
    expect((await tk.request('POST', '/insist', { token: admin, body: {} })).status).to.equal(200);
  });
});
