import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { connectMcp } from './mcp-client.js';

describe('MCP read-only mode (settings.agent.read_only)', () => {
  let tk: TestKernel;
  let client: Client;

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'components', 'agent'],
      auth: { mode: 'none' },
      settings: { agent: { read_only: true } },
    });
    ({ client } = await connectMcp(tk.url));
  });
  after(async () => {
    await client?.close();
    await tk.close();
  });

  const readOnlyOperations = (): string[] =>
    tk.kernel.catalog.routes
      .filter((r) => r.decl.read_only && r.decl.operation !== 'postMcpMessage')
      .map((r) => r.decl.operation)
      .sort();

  it('lists only read-only tools over MCP', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(readOnlyOperations());
    expect(tools.map((t) => t.name))
      .to.include('listComponents')
      .and.not.include('createComponent');
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).to.equal(true);
  });

  it('shows the same read-only list at GET /agent/mcp, while the REST catalog stays the full surface', async () => {
    const mcp = await tk.request('GET', '/agent/mcp');
    expect(mcp.body.tools.map((t: { name: string }) => t.name).sort()).to.deep.equal(readOnlyOperations());
    const rest = await tk.request('GET', '/agent/tools');
    expect(rest.body.tools.map((t: { name: string }) => t.name)).to.include('createComponent');
  });

  it('refuses a write tool called by name with an isError forbidden result, and writes nothing', async () => {
    const result = await client.callTool({
      name: 'createComponent',
      arguments: { type: 'passthrough', name: 'Should Not Exist' },
    });
    expect(result.isError).to.equal(true);
    expect((result.structuredContent as { error: Record<string, unknown> }).error).to.include({
      code: 'forbidden',
      status: 403,
    });
    expect(await tk.kernel.database.knex('components').where({ id: 'should-not-exist' }).first()).to.equal(undefined);
  });

  it('still runs read tools, and leaves the REST API writable', async () => {
    const rest = await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Via Rest' } });
    expect(rest.status).to.equal(201);
    const result = await client.callTool({ name: 'getComponent', arguments: { id: 'via-rest' } });
    expect(result.isError).to.equal(false);
    expect(result.structuredContent).to.include({ id: 'via-rest', name: 'Via Rest' });
  });
});
