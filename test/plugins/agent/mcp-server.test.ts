import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { connectMcp, postMcp } from './mcp-client.js';

const FIXTURE = { module: 'test/fixtures/third-party-plugin' };

type Structured = Record<string, any>;

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof McpError) return err;
    throw err;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('POST /agent/mcp (MCP over Streamable HTTP)', () => {
  let tk: TestKernel;
  let client: Client;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'components', 'agent', FIXTURE], auth: { mode: 'none' } });
    ({ client } = await connectMcp(tk.url));
  });
  after(async () => {
    await client?.close();
    await tk.close();
  });

  const rows = (tenant = 'default'): Promise<Array<{ id: string; name: string }>> =>
    tk.kernel.database.knex('components').where({ tenant_id: tenant }).orderBy('id').select('id', 'name');

  describe('the official SDK client', () => {
    it('initializes a stateless session: tools capability, server info, no session id', async () => {
      const { client: fresh, transport } = await connectMcp(tk.url);
      try {
        expect(fresh.getServerCapabilities()).to.deep.equal({ tools: { listChanged: false } });
        expect(fresh.getServerVersion()).to.deep.equal({ name: 'runtime-kernel', version: '0.1.0' });
        expect(fresh.getInstructions()).to.contain('credential');
        expect(transport.sessionId).to.equal(undefined);
        expect(await fresh.ping()).to.deep.equal({});
      } finally {
        await fresh.close();
      }
    });

    it('lists every tool the caller may call, with input schemas and hints', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      // Every operation but the transport itself, event streams and WebSockets, and writes no permission grants.
      const expected = tk.kernel.catalog.routes
        .filter(
          (r) =>
            !r.decl.stream &&
            !r.decl.upgrade &&
            (r.decl.read_only || (r.decl.permission !== 'public' && r.decl.permission !== 'authenticated')),
        )
        .map((r) => r.decl.operation)
        .filter((n) => n !== 'postMcpMessage');
      expect(names.sort()).to.deep.equal(expected.sort());
      const create = tools.find((t) => t.name === 'createComponent');
      expect(create?.inputSchema.required).to.deep.equal(['name', 'type']);
      expect(create?.annotations).to.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    });

    it('calls a read tool and gets what the REST route answers', async () => {
      await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Read Me' } });
      const result = await client.callTool({ name: 'listComponents', arguments: {} });
      const rest = await tk.request('GET', '/components');
      expect(result.isError).to.equal(false);
      expect(result.structuredContent).to.deep.equal(rest.body);
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).to.deep.equal(rest.body);
      expect((result.structuredContent as Structured).items.map((c: { id: string }) => c.id)).to.include('read-me');
    });

    it('calls a write tool: the change is stored and audited with actor_type agent', async () => {
      const result = await client.callTool({
        name: 'createComponent',
        arguments: { type: 'passthrough', name: 'Agent Made', tags: ['mcp'] },
      });
      expect(result.isError).to.equal(false);
      expect(result.structuredContent).to.include({
        id: 'agent-made',
        tenant_id: 'default',
        name: 'Agent Made',
        state: 'running',
      });
      expect(await rows()).to.deep.include({ id: 'agent-made', name: 'Agent Made' });

      const audit = await tk.request('GET', '/audit?operation=createComponent&resource=agent-made');
      expect(audit.status).to.equal(200);
      expect(audit.body.items).to.have.length(1);
      expect(audit.body.items[0]).to.deep.include({
        operation: 'createComponent',
        method: 'POST',
        path: '/components',
        status: 201,
        outcome: 'success',
        transport: 'mcp',
      });
      expect(audit.body.items[0].actor.actor_type).to.equal('agent');
      expect(audit.body.items[0].fields).to.deep.equal({ name: 'Agent Made', type: 'passthrough', tags: ['mcp'] });
    });

    it('passes path params, query and body to the route: a supervisor action on one component', async () => {
      const result = await client.callTool({
        name: 'stopComponent',
        arguments: { id: 'agent-made', reason: 'go', request_id: 'stop-1' },
      });
      expect(result.isError).to.equal(false);
      expect(result.structuredContent).to.deep.include({ action: 'stop', previous_state: 'running' });
      const row = await tk.kernel.database.knex('components').where({ tenant_id: 'default', id: 'agent-made' }).first();
      expect(row.state).to.equal('stopped');
    });

    it('acts in the tenant named by tenant_id, like REST', async () => {
      const result = await client.callTool({
        name: 'createComponent',
        arguments: { type: 'passthrough', name: 'Elsewhere', tenant_id: 'tenant-b' },
      });
      expect(result.structuredContent).to.include({ id: 'elsewhere', tenant_id: 'tenant-b' });
      expect(await rows('tenant-b')).to.deep.equal([{ id: 'elsewhere', name: 'Elsewhere' }]);
      const listed = await client.callTool({ name: 'listComponents', arguments: { tenant_id: 'tenant-b' } });
      expect((listed.structuredContent as Structured).items.map((c: { id: string }) => c.id)).to.deep.equal([
        'elsewhere',
      ]);
    });

    it('replays an idempotent write instead of doing it twice', async () => {
      const args = { type: 'passthrough', name: 'Once Only', idempotency_key: 'mcp-key-1' };
      const first = await client.callTool({ name: 'createComponent', arguments: args });
      const second = await client.callTool({ name: 'createComponent', arguments: args });
      expect(first.isError).to.equal(false);
      expect(second.isError).to.equal(false);
      expect(second.structuredContent).to.deep.equal(first.structuredContent);
      expect((await rows()).filter((r) => r.id === 'once-only')).to.have.length(1);
    });

    it('runs a dry run without keeping the change', async () => {
      const result = await client.callTool({
        name: 'createComponent',
        arguments: { type: 'passthrough', name: 'Only Pretend', dry_run: true },
      });
      expect(result.isError).to.equal(false);
      expect(result.structuredContent).to.deep.include({
        dry_run: true,
        persisted: false,
        operation: 'createComponent',
      });
      expect((await rows()).map((r) => r.id)).to.not.include('only-pretend');
    });

    it('pages a list: the header cursor comes back as next_cursor', async () => {
      for (const name of ['Page A', 'Page B', 'Page C'])
        await tk.request('POST', '/components', { body: { type: 'passthrough', name, tenant_id: 'paging' } });
      const first = await client.callTool({ name: 'listComponents', arguments: { tenant_id: 'paging', limit: 2 } });
      const page1 = first.structuredContent as Structured;
      expect(page1.items.map((c: { id: string }) => c.id)).to.deep.equal(['page-a', 'page-b']);
      expect(page1.next_cursor).to.be.a('string');
      const second = await client.callTool({
        name: 'listComponents',
        arguments: { tenant_id: 'paging', limit: 2, cursor: page1.next_cursor },
      });
      const page2 = second.structuredContent as Structured;
      expect(page2.items.map((c: { id: string }) => c.id)).to.deep.equal(['page-c']);
      expect(page2).to.not.have.property('next_cursor');
    });

    it('pages a third-party body-cursor list the same way', async () => {
      for (const id of ['n1', 'n2', 'n3'])
        await client.callTool({ name: 'createNote', arguments: { id, title: `Note ${id}` } });
      const first = await client.callTool({ name: 'listNotes', arguments: { limit: 2 } });
      const page1 = first.structuredContent as Structured;
      expect(page1.items.map((n: { id: string }) => n.id)).to.deep.equal(['n1', 'n2']);
      const second = await client.callTool({ name: 'listNotes', arguments: { limit: 2, cursor: page1.next_cursor } });
      expect((second.structuredContent as Structured).items.map((n: { id: string }) => n.id)).to.deep.equal(['n3']);
    });

    it('turns a REST error into an isError result carrying the spec error object', async () => {
      const missing = await client.callTool({ name: 'getComponent', arguments: { id: 'no-such-thing' } });
      expect(missing.isError).to.equal(true);
      const error = (missing.structuredContent as Structured).error;
      expect(error).to.include({ code: 'not_found', status: 404 });
      expect(error.message).to.be.a('string');
      expect(JSON.parse((missing.content as Array<{ text: string }>)[0]?.text ?? '')).to.deep.equal(
        missing.structuredContent,
      );

      const taken = await client.callTool({
        name: 'createComponent',
        arguments: { type: 'passthrough', id: 'agent-made', name: 'Again' },
      });
      expect(taken.isError).to.equal(true);
      expect((taken.structuredContent as Structured).error).to.include({ code: 'duplicate_identifier', status: 409 });
      expect((await rows()).find((r) => r.id === 'agent-made')?.name).to.equal('Agent Made');
    });

    it('answers an unknown tool with JSON-RPC error -32602', async () => {
      const err = await rpcError(client.callTool({ name: 'launchRockets', arguments: {} }));
      expect(err.code).to.equal(-32602);
      expect(err.message).to.contain('Unknown tool: launchRockets');
      const self = await rpcError(client.callTool({ name: 'postMcpMessage', arguments: {} }));
      expect(self.code).to.equal(-32602);
    });

    it('answers invalid arguments with JSON-RPC error -32602 naming what is wrong, and changes nothing', async () => {
      const before = await rows();
      const err = await rpcError(
        client.callTool({
          name: 'createComponent',
          arguments: { type: 'passthrough', name: 'Bad Tags', tags: 'not-a-list' },
        }),
      );
      expect(err.code).to.equal(-32602);
      const data = err.data as Structured;
      expect(data.error).to.include({ code: 'validation_error', status: 400 });
      expect(data.error.details).to.deep.include({ in: 'body', pointer: '/tags', message: 'must be array' });
      const unknown = await rpcError(
        client.callTool({ name: 'getComponent', arguments: { id: 'agent-made', colour: 'red' } }),
      );
      expect(unknown.code).to.equal(-32602);
      expect((unknown.data as Structured).error.details[0]).to.include({ pointer: '/colour' });
      expect(await rows()).to.deep.equal(before);
    });
  });

  describe('the protocol, message by message', () => {
    it('accepts notifications and client responses with 202 and no body', async () => {
      for (const message of [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
        { jsonrpc: '2.0', id: 'server-1', result: {} },
      ]) {
        const res = await postMcp(tk.url, message);
        expect(res.status, JSON.stringify(message)).to.equal(202);
        expect(res.text).to.equal('');
      }
    });

    it("negotiates the protocol version: the client's when supported, else the newest", async () => {
      const init = (protocolVersion: string) =>
        postMcp(tk.url, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        });
      expect((await init('2025-03-26')).body.result.protocolVersion).to.equal('2025-03-26');
      const future = await init('2099-01-01');
      expect(future.status).to.equal(200);
      expect(future.body.result.protocolVersion).to.equal('2025-11-25');
      expect(future.headers.get('mcp-session-id')).to.equal(null);
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400', async () => {
      const res = await postMcp(
        tk.url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { 'mcp-protocol-version': '1999-01-01' },
      );
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'bad_request', status: 400 });
      expect(
        (await postMcp(tk.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-06-18' }))
          .body,
      ).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('answers an unknown method with -32601 and a malformed request with -32600', async () => {
      const unknown = await postMcp(tk.url, { jsonrpc: '2.0', id: 'a', method: 'resources/list' });
      expect(unknown.status).to.equal(200);
      expect(unknown.body).to.deep.include({ jsonrpc: '2.0', id: 'a' });
      expect(unknown.body.error.code).to.equal(-32601);
      const neither = await postMcp(tk.url, { jsonrpc: '2.0', id: 3 });
      expect(neither.body.error.code).to.equal(-32600);
      expect(neither.body.id).to.equal(3);
      const noName = await postMcp(tk.url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
      expect(noName.body.error.code).to.equal(-32602);
      const badArgs = await postMcp(tk.url, {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'listComponents', arguments: [1] },
      });
      expect(badArgs.body.error.code).to.equal(-32602);
    });

    it('refuses what is not JSON-RPC 2.0 at the HTTP level with the spec error object', async () => {
      const res = await postMcp(tk.url, { jsonrpc: '1.0', id: 1, method: 'ping' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'validation_error', status: 400 });
      const garbage = await fetch(`${tk.url}/agent/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":',
      });
      expect(garbage.status).to.equal(400);
      expect(((await garbage.json()) as Structured).error.code).to.equal('invalid_json');
    });

    it('answers a batch in order, leaving notifications out', async () => {
      const res = await postMcp(tk.url, [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'getComponent', arguments: { id: 'agent-made' } },
        },
        { jsonrpc: '2.0', id: 3, method: 'nope' },
      ]);
      expect(res.status).to.equal(200);
      expect(res.body.map((m: { id: number }) => m.id)).to.deep.equal([1, 2, 3]);
      expect(res.body[1].result.structuredContent.id).to.equal('agent-made');
      expect(res.body[2].error.code).to.equal(-32601);
      const empty = await postMcp(tk.url, []);
      expect(empty.body.error.code).to.equal(-32600);
      const onlyNotifications = await postMcp(tk.url, [{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
      expect(onlyNotifications.status).to.equal(202);
    });

    it('refuses browser origins that are not allowed (DNS rebinding) and accepts loopback ones', async () => {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      for (const origin of ['https://evil.example', 'null', `http://attacker.test:${new URL(tk.url).port}`]) {
        const res = await postMcp(tk.url, ping, { origin });
        expect(res.status, origin).to.equal(403);
        expect(res.body.error, origin).to.include({ code: 'forbidden', status: 403 });
      }
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:9000']) {
        expect((await postMcp(tk.url, ping, { origin })).status, origin).to.equal(200);
      }
    });

    it('leaves no trace of itself in the audit trail: each tool call is audited as its own operation', async () => {
      const audit = await tk.request('GET', '/audit?operation=postMcpMessage');
      expect(audit.status).to.equal(200);
      expect(audit.body.items).to.deep.equal([]);
    });
  });
});

describe('MCP settings', () => {
  it('allows the browser origins listed in settings.agent.allowed_origins', async () => {
    const tk = await startKernel({
      plugins: ['system', 'components', 'agent'],
      auth: { mode: 'none' },
      settings: { agent: { allowed_origins: ['https://console.example.com'] } },
    });
    try {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      expect((await postMcp(tk.url, ping, { origin: 'https://console.example.com' })).status).to.equal(200);
      expect((await postMcp(tk.url, ping, { origin: 'https://console.example.com.evil.example' })).status).to.equal(
        403,
      );
    } finally {
      await tk.close();
    }
  });

  it('refuses to boot with a malformed setting, naming it', async () => {
    let error: Error | undefined;
    try {
      const tk = await startKernel({
        plugins: ['system', 'agent'],
        auth: { mode: 'none' },
        settings: { agent: { allowed_origins: ['console.example.com/path'] } },
      });
      await tk.close();
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.match(/settings\.agent: allowed_origins entry "console\.example\.com\/path"/);
  });
});

describe('MCP behind a load balancer', () => {
  const schema = `t_mcp_lb_${Date.now().toString(36)}`;
  let a: TestKernel;
  let b: TestKernel;
  before(async () => {
    // On PostgreSQL both instances share one schema, as instances behind a balancer share a database.
    a = await startKernel({ plugins: ['system', 'components', 'agent'], auth: { mode: 'none' } }, { schema });
    b = await startKernel({ plugins: ['system', 'components', 'agent'], auth: { mode: 'none' } }, { schema });
  });
  after(async () => {
    await closeSharingSchema(schema, a, b);
  });

  it('lets any instance answer any message: no session to stick to', async () => {
    const hits: string[] = [];
    let turn = 0;
    // Round-robin, like a balancer with no session affinity: every request goes to the other instance.
    const balancer: typeof fetch = (input, init) => {
      const target = (turn++ % 2 === 0 ? a : b).url;
      hits.push(target);
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${target}${url.pathname}${url.search}`, init);
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/agent/mcp`), { fetch: balancer });
    const client = new Client({ name: 'balanced', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('createComponent');
      const created = await client.callTool({
        name: 'createComponent',
        arguments: { type: 'passthrough', name: 'Balanced' },
      });
      expect(created.isError).to.equal(false);
      const read = await client.callTool({ name: 'getComponent', arguments: { id: 'balanced' } });
      if (onPostgres) {
        expect(read.isError).to.equal(false);
        expect(read.structuredContent).to.include({ id: 'balanced' });
      }
      expect(new Set(hits).size).to.equal(2);
    } finally {
      await client.close();
    }
  });
});
