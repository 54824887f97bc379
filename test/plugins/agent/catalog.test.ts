import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

const FIXTURE = { module: 'test/fixtures/third-party-plugin' };

interface Entry {
  name: string;
  plugin: string;
  method: string;
  path: string;
  permission: string;
  category: string;
  read_only: boolean;
  description: string;
  idempotency: string;
  paging?: { default_limit: number; max_limit: number; cursor_in: string };
  input_schema: Record<string, any>;
  callable?: boolean;
}

describe('GET /agent/tools', () => {
  let tk: TestKernel;
  let tools: Entry[];
  const byName = (name: string): Entry => {
    const entry = tools.find((t) => t.name === name);
    if (!entry) throw new Error(`no catalog entry ${name}`);
    return entry;
  };

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components', 'agent', FIXTURE], auth: { mode: 'none' } });
    const res = await tk.request('GET', '/agent/tools');
    expect(res.status).to.equal(200);
    tools = res.body.tools;
  });
  after(() => tk.close());

  it('lists one entry per operation of every enabled plugin, built-in and third-party', () => {
    const expected = tk.kernel.catalog.routes.map((r) => r.decl.operation).sort();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(expected);
    expect(tools.map((t) => t.name)).to.include.members([
      'listComponents',
      'createComponent',
      'listNotes',
      'createNote',
      'getHealth',
      'listAgentTools',
      'postMcpMessage',
    ]);
  });

  it('carries name, method, path, permission, read_only, category and description from the manifest', () => {
    expect(byName('createComponent')).to.include({
      plugin: 'components',
      method: 'POST',
      path: '/components',
      permission: 'runtime:component:write',
      category: 'builder',
      read_only: false,
      idempotency: 'idempotency_key',
    });
    expect(byName('getComponent')).to.include({
      method: 'GET',
      path: '/components/{id}',
      permission: 'runtime:component:read',
      read_only: true,
      idempotency: 'none',
    });
    expect(byName('getHealth')).to.include({ permission: 'public', category: 'operate' });
    expect(byName('listComponents').paging).to.deep.equal({ default_limit: 100, max_limit: 500, cursor_in: 'header' });
    expect(byName('listNotes').paging).to.deep.equal({ default_limit: 50, max_limit: 200, cursor_in: 'body' });
    expect(byName('createComponent').description)
      .to.match(/^Create a component/)
      .and.to.contain('runtime:component:write');
    for (const entry of tools) expect(entry.description, entry.name).to.be.a('string').and.not.equal('');
  });

  it('merges path params, query and body into one object schema, kernel fields included', () => {
    const get = byName('getComponent').input_schema;
    expect(get.type).to.equal('object');
    expect(Object.keys(get.properties)).to.have.members(['id', 'tenant_id']);
    expect(get.required).to.deep.equal(['id']);
    expect(get.additionalProperties).to.equal(false);

    const create = byName('createComponent').input_schema;
    expect(Object.keys(create.properties)).to.have.members([
      'id',
      'name',
      'type',
      'stream',
      'description',
      'tags',
      'config',
      'tenant_id',
      'idempotency_key',
      'dry_run',
    ]);
    expect(create.required).to.deep.equal(['name', 'type']);

    const start = byName('startComponent').input_schema;
    expect(Object.keys(start.properties)).to.have.members(['id', 'reason', 'tenant_id', 'request_id', 'dry_run']);
    expect(start.required).to.deep.equal(['id']);

    const list = byName('listComponents').input_schema;
    expect(Object.keys(list.properties)).to.have.members(['state', 'tag', 'type', 'tenant_id', 'limit', 'cursor']);
    expect(list).to.not.have.property('required');
  });

  it("gives self-contained schemas: every $ref points into the schema's own $defs", () => {
    for (const { name, input_schema: schema } of tools) {
      const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] as string);
      for (const ref of refs) {
        expect(ref, `${name}: ${ref}`).to.match(/^#\/\$defs\//);
        expect(schema.$defs, `${name}: ${ref}`).to.have.property(ref.slice('#/$defs/'.length));
      }
    }
    expect(byName('getComponent').input_schema.properties.id).to.deep.equal({ $ref: '#/$defs/Id' });
    expect(byName('getComponent').input_schema.$defs).to.deep.equal({
      Id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
    });
    expect(Object.keys(byName('createComponent').input_schema.$defs)).to.have.members([
      'Id',
      'Tags',
      'TypeName',
      'StreamId',
    ]);
  });

  it('gives schemas a JSON Schema validator compiles and that accept and refuse what the route does', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const { name, input_schema: schema } of tools) expect(() => ajv.compile(schema), name).to.not.throw();
    const create = ajv.compile(byName('createComponent').input_schema);
    expect(
      create({ name: 'Gateway', type: 'passthrough', tags: ['eu'], tenant_id: 'default', idempotency_key: 'k1' }),
    ).to.equal(true);
    expect(create({ name: 'Gateway', tags: ['eu'] })).to.equal(false);
    expect(create({ tags: ['eu'] })).to.equal(false);
    expect(create({ name: 'Gateway', type: 'passthrough', colour: 'red' })).to.equal(false);
    expect(create({ name: 'Gateway', type: 'passthrough', id: 'Not A Slug' })).to.equal(false);
  });

  it('filters by category', async () => {
    const res = await tk.request('GET', '/agent/tools?category=operate');
    expect(res.status).to.equal(200);
    const names = res.body.tools.map((t: Entry) => t.name);
    expect(names).to.include.members(['startComponent', 'stopComponent', 'restartComponent', 'pinNote', 'getHealth']);
    expect(res.body.tools.every((t: Entry) => t.category === 'operate')).to.equal(true);
    expect(names.length).to.equal(tools.filter((t) => t.category === 'operate').length);
  });

  it('filters by read_only', async () => {
    const reads = await tk.request('GET', '/agent/tools?read_only=true');
    expect(reads.status).to.equal(200);
    expect(reads.body.tools.length)
      .to.equal(tools.filter((t) => t.read_only).length)
      .and.to.be.greaterThan(0);
    expect(reads.body.tools.every((t: Entry) => t.read_only)).to.equal(true);
    const writes = await tk.request('GET', '/agent/tools?read_only=false&category=builder');
    expect(writes.body.tools.map((t: Entry) => t.name)).to.have.members([
      'createComponent',
      'replaceComponent',
      'patchComponent',
      'deleteComponent',
      'createNote',
      'patchNote',
      'deleteNote',
    ]);
  });

  it('answers an unknown category with an empty list and bad filters with 400 validation_error', async () => {
    expect((await tk.request('GET', '/agent/tools?category=nothing-here')).body).to.deep.equal({ tools: [] });
    const bad = await tk.request('GET', '/agent/tools?read_only=maybe');
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'validation_error', status: 400 });
    const unknown = await tk.request('GET', '/agent/tools?colour=red');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details[0]).to.include({ in: 'query', pointer: '/colour' });
  });
});

describe('GET /agent/mcp', () => {
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components', 'agent', FIXTURE], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  it('is the catalog as an MCP tools/list result, without the MCP endpoint itself', async () => {
    const [mcp, rest] = await Promise.all([tk.request('GET', '/agent/mcp'), tk.request('GET', '/agent/tools')]);
    expect(mcp.status).to.equal(200);
    const restByName = new Map<string, Entry>(rest.body.tools.map((t: Entry) => [t.name, t]));
    expect(mcp.body.tools.map((t: { name: string }) => t.name).sort()).to.deep.equal(
      [...restByName.values()]
        .filter(
          (t) =>
            t.name !== 'postMcpMessage' &&
            t.callable !== false &&
            (t.read_only || (t.permission !== 'public' && t.permission !== 'authenticated')),
        )
        .map((t) => t.name)
        .sort(),
    );
    for (const tool of mcp.body.tools) {
      expect(Object.keys(tool)).to.have.members(['name', 'title', 'description', 'inputSchema', 'annotations']);
      const entry = restByName.get(tool.name) as Entry;
      expect(tool.inputSchema).to.deep.equal(entry.input_schema);
      expect(tool.description).to.equal(entry.description);
      expect(tool.annotations.readOnlyHint).to.equal(entry.read_only);
    }
  });

  it('derives the hints from method, read_only, path and idempotency', async () => {
    const res = await tk.request('GET', '/agent/mcp');
    const hints = (name: string): Record<string, boolean> => {
      const { title: _title, ...rest } = res.body.tools.find((t: { name: string }) => t.name === name).annotations;
      return rest;
    };
    expect(hints('listComponents')).to.deep.equal({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints('createComponent')).to.deep.equal({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints('createNote')).to.deep.include({ destructiveHint: false, idempotentHint: true });
    expect(hints('patchComponent')).to.deep.include({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(hints('replaceComponent')).to.deep.include({ destructiveHint: true, idempotentHint: true });
    expect(hints('deleteComponent')).to.deep.include({ destructiveHint: true, idempotentHint: true });
    expect(hints('stopComponent')).to.deep.include({ destructiveHint: true, idempotentHint: true });
    expect(hints('deleteNote')).to.deep.include({ destructiveHint: true, idempotentHint: true });
  });

  it('answers 405 to an MCP client asking for a server-sent event stream (the server offers none)', async () => {
    const res = await tk.request('GET', '/agent/mcp', { headers: { accept: 'text/event-stream' } });
    expect(res.status).to.equal(405);
    expect(res.body.error).to.include({ code: 'method_not_allowed', status: 405 });
    expect(res.headers.get('allow')).to.equal('GET, POST');
    const both = await tk.request('GET', '/agent/mcp', { headers: { accept: 'application/json, text/event-stream' } });
    expect(both.status).to.equal(200);
  });

  it('refuses a browser origin that is not allowed, like the MCP endpoint does', async () => {
    const res = await tk.request('GET', '/agent/mcp', { headers: { origin: 'https://evil.example' } });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('forbidden');
    expect((await tk.request('GET', '/agent/mcp', { headers: { origin: 'http://localhost:5173' } })).status).to.equal(
      200,
    );
  });
});
