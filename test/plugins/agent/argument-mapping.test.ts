import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { connectMcp } from './mcp-client.js';

const SHAPES = { module: 'test/plugins/agent/fixtures/shapes-plugin' };

type Echo = { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown };

describe('tool arguments onto path params, query and body', () => {
  let tk: TestKernel;
  let client: Client;
  let schemas: Map<string, Record<string, any>>;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'agent', SHAPES], auth: { mode: 'none' } });
    ({ client } = await connectMcp(tk.url));
    const res = await tk.request('GET', '/agent/tools?category=builder');
    schemas = new Map(
      res.body.tools.map((t: { name: string; input_schema: Record<string, any> }) => [t.name, t.input_schema]),
    );
  });
  after(async () => {
    await client?.close();
    await tk.close();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<Echo> {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.structuredContent)).to.equal(false);
    return result.structuredContent as Echo;
  }

  it('takes a body that is not an object as the argument `body`', async () => {
    const schema = schemas.get('postLabels') as Record<string, any>;
    expect(schema.required).to.deep.equal(['body']);
    expect(schema.properties.body).to.deep.include({ type: 'array', items: { $ref: '#/$defs/Label' } });
    expect(schema.$defs).to.have.keys(['Label']);
    expect((await call('postLabels', { body: ['red', 'green'] })).body).to.deep.equal(['red', 'green']);
  });

  it('keeps a body whose field collides with a path parameter whole, so neither is lost', async () => {
    const schema = schemas.get('putShape') as Record<string, any>;
    expect(Object.keys(schema.properties)).to.have.members(['id', 'dry_run', 'body']);
    expect(schema.properties.body).to.deep.include({ required: ['id', 'label'] });
    expect(schema.$defs).to.have.keys(['Label']);
    const echo = await call('putShape', { id: 'square', body: { id: 'inner-id', label: 'Square' } });
    expect(echo.params).to.deep.equal({ id: 'square' });
    expect(echo.body).to.deep.equal({ id: 'inner-id', label: 'Square' });
  });

  it('sends arguments no part names into an open body, and query fields to the query', async () => {
    const schema = schemas.get('patchShapeMeta') as Record<string, any>;
    expect(schema).to.not.have.property('additionalProperties');
    const echo = await call('patchShapeMeta', { id: 'circle', verbose: true, note: 'n', extra: 42 });
    expect(echo.params).to.deep.equal({ id: 'circle' });
    expect(echo.query).to.deep.equal({ verbose: true });
    expect(echo.body).to.deep.equal({ note: 'n', extra: 42 });
  });

  it('takes an octet-stream body as base64 and hands the route the bytes', async () => {
    const schema = schemas.get('putShapeBlob') as Record<string, any>;
    expect(schema.properties.body).to.include({ type: 'string', contentEncoding: 'base64' });
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const echo = await call('putShapeBlob', { id: 'blob', body: bytes.toString('base64') });
    expect(echo.body).to.deep.equal({ bytes: 5, base64: bytes.toString('base64') });
  });

  it('refuses a body that is not base64 with JSON-RPC -32602', async () => {
    let error: unknown;
    try {
      await client.callTool({ name: 'putShapeBlob', arguments: { id: 'blob', body: 'not base64!' } });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(McpError);
    expect((error as McpError).code).to.equal(-32602);
    expect((error as McpError).message).to.contain('base64');
  });

  it("refuses arguments the route's schema refuses, wherever they were sent", async () => {
    for (const [name, args, pointer] of [
      ['putShape', { id: 'UPPER', body: { id: 'x', label: 'ok' } }, '/id'],
      ['putShape', { id: 'fine', body: { id: 'x', label: '' } }, '/label'],
      ['patchShapeMeta', { id: 'circle', verbose: 'perhaps' }, '/verbose'],
    ] as const) {
      let error: unknown;
      try {
        await client.callTool({ name, arguments: args });
      } catch (err) {
        error = err;
      }
      expect((error as McpError).code, `${name} ${pointer}`).to.equal(-32602);
      expect(
        ((error as McpError).data as { error: { details: Array<{ pointer: string }> } }).error.details.map(
          (d) => d.pointer,
        ),
      ).to.include(pointer);
    }
  });
});
