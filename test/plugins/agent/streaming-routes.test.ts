import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { connectMcp, postMcp } from './mcp-client.js';

const FIXTURE = { module: 'test/fixtures/realtime-plugin' };
const STREAMING = ['openEchoSocket', 'openShoutSocket', 'streamCounter'];

describe('WebSocket and event-stream routes in the agent catalog', function () {
  this.timeout(120_000);
  let tk: TestKernel;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'agent', FIXTURE], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  it('lists them in /agent/tools as not callable, saying how they are opened', async () => {
    const res = await tk.request('GET', '/agent/tools');
    const byName = new Map((res.body.tools as Array<{ name: string }>).map((t) => [t.name, t as any]));
    expect(byName.get('openEchoSocket')).to.include({
      callable: false,
      transport: 'websocket',
      method: 'GET',
      path: '/echo/ws',
      permission: 'echo:socket:open',
    });
    expect(byName.get('openEchoSocket').description).to.contain(
      'one-time ticket for channel echo (minted by mintEchoTicket)',
    );
    expect(byName.get('streamCounter')).to.include({ callable: false, transport: 'sse' });
    expect(byName.get('mintEchoTicket')).to.include({ callable: true });
    expect(byName.get('mintEchoTicket')).to.not.have.property('transport');
  });

  it('leaves them out of MCP tools/list, and tools/call refuses them', async () => {
    const { client } = await connectMcp(tk.url);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).to.include('mintEchoTicket');
      for (const name of STREAMING) expect(names).to.not.include(name);
    } finally {
      await client.close();
    }
    const call = await postMcp(
      tk.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'streamCounter', arguments: { to: 2 } } },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(call.status).to.equal(200);
    expect(call.body.error.message).to.equal('Unknown tool: streamCounter');
  });
});
