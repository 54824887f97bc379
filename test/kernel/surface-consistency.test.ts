import { expect } from 'chai';
import { startKernel, type TestKernel } from '../support/kernel.js';
import { connectMcp } from '../plugins/agent/mcp-client.js';

const FIXTURE = { module: 'test/fixtures/third-party-plugin' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `METHOD /path operation` for one operation, the unit all three listings are compared in. */
type Operation = string;

function operationsOfOpenApi(doc: { paths: Record<string, Record<string, { operationId: string }>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item))
      if (METHODS.includes(method)) out.push(`${method.toUpperCase()} ${path} ${op.operationId}`);
  }
  return out.sort();
}

/** A concrete path for a template, and a matcher telling which templates a concrete path hits. */
function concrete(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => `probe-${name}`);
}
function matches(template: string, path: string): boolean {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

describe('the surface: the catalog, /openapi.json and the router list the same operations', () => {
  let tk: TestKernel;
  let catalog: Operation[];
  /** Operations MCP offers a caller holding every permission: one call, one result, and a write only where a permission grants it. */
  let mcpCallable: string[];
  let openapi: Operation[];

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'components', 'agent', FIXTURE], auth: { mode: 'none' } });
    const tools = await tk.request('GET', '/agent/tools');
    expect(tools.status).to.equal(200);
    mcpCallable = tools.body.tools
      .filter(
        (t: { name: string; callable: boolean; read_only: boolean; permission: string }) =>
          t.name !== 'postMcpMessage' &&
          t.callable &&
          (t.read_only || (t.permission !== 'public' && t.permission !== 'authenticated')),
      )
      .map((t: { name: string }) => t.name);
    catalog = tools.body.tools
      .map((t: { method: string; path: string; name: string }) => `${t.method} ${t.path} ${t.name}`)
      .sort();
    const doc = await tk.request('GET', '/openapi.json');
    expect(doc.status).to.equal(200);
    openapi = operationsOfOpenApi(doc.body);
  });
  after(() => tk.close());

  it('lists exactly the same operations in /agent/tools and /openapi.json, each once', () => {
    expect(catalog).to.deep.equal(openapi);
    expect(new Set(catalog.map((o) => o.split(' ')[2])).size).to.equal(catalog.length);
    const compiled = tk.kernel.catalog.routes.map((r) => `${r.decl.method} ${r.path} ${r.decl.operation}`).sort();
    expect(catalog).to.deep.equal(compiled);
  });

  it('routes every listed operation, and no other method on a listed path', async () => {
    const templates = [...new Set(catalog.map((o) => o.split(' ')[1] as string))];
    for (const template of templates) {
      const path = concrete(template);
      const expected = catalog.filter((o) => matches(o.split(' ')[1] as string, path)).map((o) => o.split(' ')[0]);
      const res = await tk.request('OPTIONS', path);
      expect(res.status, path).to.equal(204);
      const allowed = (res.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== 'HEAD');
      expect(allowed.sort(), path).to.deep.equal([...new Set(expected)].sort());
    }
  });

  it('routes nothing that is not listed', async () => {
    for (const path of ['/unlisted', '/components/x/y/z', '/agent', '/notes/n1/unpin']) {
      const res = await tk.request('GET', path);
      expect(res.status, path).to.equal(404);
      expect(res.body.error.code, path).to.equal('not_found');
    }
  });

  it("includes the third-party plugin's routes in all three", async () => {
    const notes = [
      'GET /notes listNotes',
      'POST /notes createNote',
      'PATCH /notes/{id} patchNote',
      'POST /notes/{id}/pin pinNote',
      'DELETE /notes/{id} deleteNote',
    ];
    expect(catalog).to.include.members(notes);
    expect(openapi).to.include.members(notes);
    expect((await tk.request('OPTIONS', '/notes')).headers.get('allow'))
      .to.match(/GET/)
      .and.match(/POST/);
    const created = await tk.request('POST', '/notes', { body: { id: 'surface', title: 'Routed' } });
    expect(created.status).to.equal(201);
  });

  it('offers every callable operation but the MCP endpoint itself as an MCP tool (writes only where a permission grants them)', async () => {
    const { client } = await connectMcp(tk.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal([...mcpCallable].sort());
    } finally {
      await client.close();
    }
  });
});
