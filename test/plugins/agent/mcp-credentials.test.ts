import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';
import { connectMcp, postMcp } from './mcp-client.js';

type Structured = Record<string, any>;

/** Every MCP connection a test opens, closed after the suite. */
const open: Client[] = [];
async function mcpAs(tk: TestKernel, headers: Record<string, string>): Promise<Client> {
  const { client } = await connectMcp(tk.url, headers);
  open.push(client);
  return client;
}
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('MCP with real credentials (sessions and API tokens)', () => {
  let tk: TestKernel;
  let admin: string;
  let viewer: string;

  before(async () => {
    tk = await startKernel();
    admin = await loginAdmin(tk);
    viewer = await mintToken(tk, admin, ['viewer'], { name: 'viewer agent' });
  });
  after(async () => {
    for (const client of open.splice(0)) await client.close();
    await tk.close();
  });

  /** Operations that change state; `guarded`: only those that need a declared permission. */
  const writeTools = (guarded = false): string[] =>
    tk.kernel.catalog.routes
      .filter(
        (r) =>
          !r.decl.read_only && (!guarded || (r.decl.permission !== 'public' && r.decl.permission !== 'authenticated')),
      )
      .map((r) => r.decl.operation);
  const component = (id: string, tenant = 'default') =>
    tk.kernel.database.knex('components').where({ tenant_id: tenant, id }).first();
  async function auditOf(operation: string, resource: string): Promise<Structured[]> {
    const res = await tk.request('GET', `/audit?operation=${operation}&resource=${resource}`, { token: admin });
    expect(res.status).to.equal(200);
    return res.body.items;
  }

  it('refuses an MCP client without a credential: 401 authentication_required', async () => {
    let error: unknown;
    try {
      await mcpAs(tk, {});
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).to.equal(401);
    const raw = await postMcp(tk.url, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(raw.status).to.equal(401);
    expect(raw.body.error).to.include({ code: 'authentication_required', status: 401 });
    expect(
      (await postMcp(tk.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer('sk_not_a_real_token'))).body.error.code,
    ).to.equal('invalid_credentials');
  });

  it('lets an admin session list everything, read and write; the write is audited as the agent acting for the admin', async () => {
    const client = await mcpAs(tk, { ...bearer(admin), 'x-service-agent-id': 'assistant-7' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(writeTools(true));

    const created = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Agent Component', tags: ['agent'] },
    });
    expect(created.isError).to.equal(false);
    expect((await component('agent-component'))?.name).to.equal('Agent Component');
    const read = await client.callTool({ name: 'listComponents', arguments: {} });
    expect((read.structuredContent as Structured).items.map((c: { id: string }) => c.id)).to.include('agent-component');

    const [record] = await auditOf('createComponent', 'agent-component');
    expect(record).to.deep.include({ status: 201, outcome: 'success', transport: 'mcp', tenant_id: 'default' });
    expect(record?.actor).to.include({ actor_type: 'agent', agent_id: 'assistant-7', credential_kind: 'session' });
    expect(record?.actor.subject_id).to.be.a('string').and.not.equal('');
  });

  it('accepts an API token in X-API-Key as well', async () => {
    const builder = await mintToken(tk, admin, ['builder'], { name: 'builder agent' });
    const client = await mcpAs(tk, { 'x-api-key': builder });
    const result = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Keyed' },
    });
    expect(result.isError).to.equal(false);
    const [record] = await auditOf('createComponent', 'keyed');
    expect(record?.actor).to.include({ actor_type: 'agent', credential_kind: 'api_token' });
  });

  it("shows a viewer's API token no write tool, and answers one called by name with isError forbidden", async () => {
    const client = await mcpAs(tk, bearer(viewer));
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).to.include.members(['listComponents', 'getComponent', 'listAudit']);
    // No write tool but those a read permission covers (minting a ticket to watch a studio
    // workspace read-only needs only studio:read): every other needs a permission the viewer
    // lacks, and session plumbing (login, refresh, logout), which needs none, is not offered to agents.
    const readCovered = tk.kernel.catalog.routes
      .filter((r) => !r.decl.read_only && r.decl.permission.endsWith(':read'))
      .map((r) => r.decl.operation);
    for (const write of writeTools()) if (!readCovered.includes(write)) expect(names, write).to.not.include(write);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).to.have.members(readCovered);

    const result = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Viewer Made' },
    });
    expect(result.isError).to.equal(true);
    const { error } = result.structuredContent as Structured;
    expect(error).to.include({ code: 'forbidden', status: 403 });
    expect(error.message).to.contain('runtime:component:write');
    expect(await component('viewer-made')).to.equal(undefined);

    const read = await client.callTool({ name: 'getComponent', arguments: { id: 'agent-component' } });
    expect(read.isError).to.equal(false);
    expect(read.structuredContent).to.include({ id: 'agent-component' });
  });

  it('records the refused write in the audit trail as an agent call', async () => {
    const items = (await tk.request('GET', '/audit?operation=createComponent&status=refused', { token: admin })).body
      .items as Structured[];
    const refused = items.filter((r) => r.transport === 'mcp' && r.actor.credential_kind === 'api_token');
    expect(refused.length).to.be.greaterThan(0);
    expect(refused[0]).to.deep.include({ status: 403, outcome: 'refused', error_code: 'forbidden' });
    expect(refused[0]?.actor.actor_type).to.equal('agent');
  });

  it('gives a read-only API token only read-only tools, whatever its roles', async () => {
    const readOnly = await mintToken(tk, admin, ['builder'], { name: 'read-only builder', readOnly: true });
    const client = await mcpAs(tk, bearer(readOnly));
    const { tools } = await client.listTools();
    expect(tools.length).to.be.greaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).to.equal(true);
    const result = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Read Only Made' },
    });
    expect(result.isError).to.equal(true);
    expect((result.structuredContent as Structured).error).to.include({ code: 'forbidden', status: 403 });
    expect(await component('read-only-made')).to.equal(undefined);
  });

  it("keeps tenants apart: another tenant's component is not_found, never forbidden", async () => {
    await createTenant(tk, admin, 'other');
    expect(
      (
        await tk.request('POST', '/components', {
          token: admin,
          body: { type: 'passthrough', name: 'Theirs', tenant_id: 'other' },
        })
      ).status,
    ).to.equal(201);
    const client = await mcpAs(tk, bearer(viewer));
    const result = await client.callTool({ name: 'getComponent', arguments: { id: 'theirs', tenant_id: 'other' } });
    expect(result.isError).to.equal(true);
    expect((result.structuredContent as Structured).error).to.include({ code: 'not_found', status: 404 });
  });

  it('stops working on the next request once the token is revoked', async () => {
    const builder = await mintToken(tk, admin, ['builder'], { name: 'soon revoked' });
    const client = await mcpAs(tk, bearer(builder));
    expect((await client.callTool({ name: 'listComponents', arguments: {} })).isError).to.equal(false);
    const tokens = await tk.request('GET', '/api-tokens', { token: admin });
    const id = tokens.body.items.find((t: { name: string }) => t.name === 'soon revoked').id;
    expect((await tk.request('DELETE', `/api-tokens/${id}`, { token: admin })).status).to.be.oneOf([200, 204]);
    let error: unknown;
    try {
      await client.callTool({ name: 'listComponents', arguments: {} });
    } catch (err) {
      error = err;
    }
    expect((error as StreamableHTTPError).code).to.equal(401);
  });

  it("serves the full catalog to any credential: GET /agent/tools is the surface, not the caller's share", async () => {
    expect((await tk.request('GET', '/agent/tools')).status).to.equal(401);
    const asViewer = await tk.request('GET', '/agent/tools', { token: viewer });
    expect(asViewer.status).to.equal(200);
    expect(asViewer.body.tools.map((t: { name: string }) => t.name).sort()).to.deep.equal(
      tk.kernel.catalog.routes.map((r) => r.decl.operation).sort(),
    );
  });

  it('lists at GET /agent/mcp exactly the tools MCP tools/list gives the same credential', async () => {
    expect((await tk.request('GET', '/agent/mcp')).status).to.equal(401);
    const readOnly = await mintToken(tk, admin, ['builder'], { name: 'read-only lister', readOnly: true });
    const builder = await mintToken(tk, admin, ['builder'], { name: 'builder lister' });
    const listed: Record<string, string[]> = {};
    for (const [who, credential] of Object.entries({ admin, viewer, builder, readOnly })) {
      const res = await tk.request('GET', '/agent/mcp', { token: credential });
      expect(res.status, who).to.equal(200);
      const viaGet = res.body.tools.map((t: { name: string }) => t.name);
      const { tools } = await (await mcpAs(tk, bearer(credential))).listTools();
      expect(viaGet, who).to.deep.equal(tools.map((t) => t.name));
      listed[who] = viaGet;
    }
    expect(listed.admin).to.include.members(['createComponent', 'createUser', 'listAudit']);
    expect(listed.builder).to.include('createComponent').and.not.include('createUser');
    expect(listed.viewer).to.include('listComponents').and.not.include('createComponent');
    expect(listed.readOnly).to.include('listComponents').and.not.include('createComponent');
  });
});

describe('MCP with the break-glass key', () => {
  const key = `bg_${randomBytes(32).toString('base64url')}`;
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      settings: { identity: { break_glass: { key_hash: `sha256:${createHash('sha256').update(key).digest('hex')}` } } },
    });
  });
  after(async () => {
    for (const client of open.splice(0)) await client.close();
    await tk.close();
  });

  it('audits every tool call it makes at critical severity with the reason', async () => {
    const client = await mcpAs(tk, {
      authorization: `BreakGlass ${key}`,
      'x-break-glass-reason': 'incident 7: stuck deploy',
    });
    const result = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Emergency Fix' },
    });
    expect(result.isError).to.equal(false);
    const admin = await loginAdmin(tk);
    const res = await tk.request('GET', '/audit?operation=createComponent&resource=emergency-fix', { token: admin });
    expect(res.body.items).to.have.length(1);
    const [record] = res.body.items as Structured[];
    expect(record).to.deep.include({ severity: 'critical', transport: 'mcp', outcome: 'success' });
    expect(record?.detail).to.include({ break_glass: true, reason: 'incident 7: stuck deploy' });
    expect(record?.actor).to.include({ actor_type: 'agent', credential_kind: 'break_glass' });
  });
});
