import { expect } from 'chai';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { CompiledRoute } from '../../../kernel/types.js';
import { mintToken } from '../../support/identity.js';
import type { HttpResult, RequestOptions } from '../../support/kernel.js';
import { operationsOf, serveEverything, type Served } from './served.js';

type Operation = ReturnType<typeof operationsOf>[number];

const statusesOf = (op: Operation): string[] => Object.keys(op.op.responses);

/** A concrete path for a template: every parameter becomes a value its pattern accepts. */
const concrete = (template: string): string =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => `probe-${name.replace(/_/g, '-')}`);

describe('OpenAPI responses: every status a route can answer is documented', function () {
  this.timeout(180_000);
  let served: Served;
  let operations: Operation[];
  let readOnly: string;
  let routeOf: (op: Operation) => CompiledRoute;
  let errorBody: ValidateFunction;
  let dryRunReport: ValidateFunction;

  before(async () => {
    served = await serveEverything();
    operations = operationsOf(served.doc);
    readOnly = await mintToken(served.tk, served.admin, ['admin'], { name: 'read-only prober', readOnly: true });
    routeOf = (op) => {
      const route = served.tk.kernel.catalog.byOperation(op.op.operationId);
      if (!route) throw new Error(`no route for ${op.op.operationId}`);
      return route;
    };
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: served.doc.components });
    errorBody = ajv.getSchema('doc#/components/schemas/Error') as ValidateFunction;
    dryRunReport = ajv.getSchema('doc#/components/schemas/DryRunReport') as ValidateFunction;
  });
  after(() => served?.tk.close());

  describe('derived from what the kernel does for each route', () => {
    it('documents 400 and 500 everywhere, and the success and manifest errors of each route', () => {
      for (const op of operations) {
        const route = routeOf(op);
        const documented = statusesOf(op);
        const name = op.op.operationId;
        expect(documented, name).to.include.members(['400', '500', String(route.decl.response.status)]);
        expect(documented, name).to.include.members((route.decl.errors ?? []).map(String));
        expect(documented, name).to.include.members(
          (route.decl.response.alternatives ?? []).map((a) => String(a.status)),
        );
      }
    });

    it('documents 401, 403 and 503 where a credential is checked, and 404 where a tenant or a path id is resolved', () => {
      for (const op of operations) {
        const route = routeOf(op);
        const documented = statusesOf(op);
        const name = op.op.operationId;
        const authenticated = route.decl.permission !== 'public';
        if (authenticated) expect(documented, name).to.include.members(['401', '503']);
        // RBAC, a read-only credential on a write, or account-wide scope (*) without the permission.
        const mayForbid =
          authenticated &&
          (route.decl.permission !== 'authenticated' || !route.decl.read_only || route.tenancy === 'tenant');
        if (mayForbid) expect(documented, name).to.include('403');
        if (route.mutating) expect(documented, name).to.include('503');
        if (route.tenancy === 'tenant' || route.schemas.params) expect(documented, name).to.include('404');
      }
    });

    it('documents 409 and 422 on idempotent writes, 413 and 415 where a body is read', () => {
      for (const op of operations) {
        const route = routeOf(op);
        const documented = statusesOf(op);
        const name = op.op.operationId;
        if (route.mutating && route.idempotency !== 'none') expect(documented, name).to.include.members(['409', '422']);
        if (op.op.requestBody) expect(documented, name).to.include.members(['413', '415']);
      }
    });

    it('documents the dry-run report as a 200 of every route that takes dry_run', () => {
      let seen = 0;
      for (const op of operations) {
        const route = routeOf(op);
        if (!route.dryRunAllowed) continue;
        seen++;
        const schema = op.op.responses['200']?.content?.['application/json']?.schema;
        const refs = JSON.stringify(schema ?? null);
        expect(refs, op.op.operationId).to.contain('#/components/schemas/DryRunReport');
        expect(
          op.op.parameters.map((p: { name: string }) => p.name),
          op.op.operationId,
        ).to.include('dry_run');
      }
      expect(seen).to.be.greaterThan(10);
    });

    it('documents 202 of the MCP endpoint (a notification needs no answer) and 405 of its GET', () => {
      expect(served.doc.paths['/agent/mcp']?.post.responses).to.have.property('202');
      expect(served.doc.paths['/agent/mcp']?.get.responses).to.have.property('405');
    });

    it('defines every error response it refers to, and none it does not use', () => {
      const used = new Set(
        operations.flatMap((op) =>
          Object.values(op.op.responses)
            .map((r: any) => r.$ref)
            .filter(Boolean),
        ),
      );
      const defined = Object.keys(served.doc.components.responses).map((name) => `#/components/responses/${name}`);
      expect([...used].sort()).to.deep.equal(defined.sort());
    });
  });

  describe('probed on the live kernel', () => {
    const unexpected: string[] = [];
    const observed = new Set<number>();
    let reports = 0;

    /** Sends one probe and records a status the operation does not document, or a body off its schema. */
    async function probe(kind: string, op: Operation, path: string, options: RequestOptions = {}): Promise<HttpResult> {
      const res = await served.tk.request(op.method, path, options);
      observed.add(res.status);
      const at = `${kind}: ${op.method} ${path} → ${res.status}`;
      if (!statusesOf(op).includes(String(res.status))) unexpected.push(`${at} is not documented`);
      if (res.status >= 400 && !errorBody(res.body))
        unexpected.push(`${at} has no error body: ${res.text.slice(0, 200)}`);
      if (kind === 'dry run' && res.status === 200) {
        reports++;
        if (!dryRunReport(res.body)) unexpected.push(`${at} is not a dry-run report: ${res.text.slice(0, 200)}`);
      }
      return res;
    }

    it('answers only documented statuses to callers without a credential, with a read-only credential, with bad input and in dry runs', async () => {
      const limit = served.tk.kernel.config.http.body_limit_bytes;
      for (const op of operations) {
        const route = routeOf(op);
        const path = concrete(op.path);
        const withBody = (token: string): RequestOptions => ({ token, ...(op.op.requestBody ? { body: {} } : {}) });
        await probe('no credential', op, path);
        await probe('unknown query field', op, `${path}?probe_unknown=1`, { token: served.admin });
        if (route.tenancy === 'tenant' && !route.mutating)
          await probe('tenant that does not exist', op, `${path}?tenant_id=no-such-tenant`, { token: served.admin });
        if (route.dryRunAllowed) {
          await probe('dry run', op, `${path}?dry_run=true`, withBody(served.admin));
          await probe('read-only credential', op, `${path}?dry_run=true`, withBody(readOnly));
        }
        if (op.op.requestBody && route.dryRunAllowed) {
          await probe('wrong media type', op, `${path}?dry_run=true`, {
            token: served.admin,
            raw: 'name=x',
            contentType: 'text/plain',
          });
          await probe('body over the limit', op, `${path}?dry_run=true`, {
            token: served.admin,
            raw: JSON.stringify({ name: 'x'.repeat(limit) }),
          });
        }
      }
      expect(unexpected).to.deep.equal([]);
      // The probes reached each kind of refusal (and the dry-run report), so the test is not vacuous.
      expect([...observed]).to.include.members([200, 400, 401, 403, 404, 413, 415]);
      expect(reports).to.be.greaterThan(0);
    });

    it('answers an MCP notification with the documented 202 and an event-stream GET with the documented 405', async () => {
      const post = operations.find((op) => op.op.operationId === 'postMcpMessage') as Operation;
      const notified = await probe('notification', post, '/agent/mcp', {
        token: served.admin,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      });
      expect(notified.status).to.equal(202);
      const get = operations.find((op) => op.op.operationId === 'listMcpTools') as Operation;
      expect(
        (
          await probe('event stream', get, '/agent/mcp', {
            token: served.admin,
            headers: { accept: 'text/event-stream' },
          })
        ).status,
      ).to.equal(405);
      expect(unexpected).to.deep.equal([]);
    });

    it("leaves the prober's session working: the dry runs kept nothing", async () => {
      expect((await served.tk.request('GET', '/auth/sessions', { token: served.admin })).status).to.equal(200);
      expect((await served.tk.request('GET', '/components', { token: served.admin })).body.items).to.deep.equal([]);
    });
  });
});
