import { expect } from 'chai';
import { ApiError } from '../../../kernel/errors.js';
import { contribute, coreExtensions, coreServices, createPlugin, serviceRef } from '../../../kernel/plugin/api.js';
import type { AuditSink, PluginDefinition } from '../../../kernel/types.js';
import { startKernel } from '../../support/kernel.js';

const COMPONENT_TYPES_FIXTURE = { module: 'test/fixtures/component-type-plugin' };

/** Boots and returns the error the boot failed with (or fails the test). */
async function bootError(overrides: Record<string, unknown>, plugins: PluginDefinition[] = []): Promise<string> {
  try {
    const k = await startKernel({ auth: { mode: 'none' }, ...overrides }, { plugins });
    await k.close();
  } catch (err) {
    return String(err);
  }
  throw new Error('the kernel booted');
}

const sink: AuditSink = { write: async () => undefined };
const sinkPlugin = (id: string): PluginDefinition =>
  createPlugin({
    id,
    manifest: { id, version: '1.0.0', summary: 'an audit sink', routes: [] },
    deps: {},
    setup: () => ({ handlers: {}, contributions: [contribute(coreExtensions.auditSink, sink)] }),
  });

/** A plugin with its own error code and settings schema, in TypeScript on the typed API. */
const gadgets = createPlugin<{ clock: typeof coreServices.clock }, { colour: string; size: number }>({
  id: 'gadgets',
  manifest: {
    id: 'gadgets',
    version: '1.0.0',
    summary: 'gadgets',
    permissions: [{ name: 'gadgets:gadget:read', description: 'read' }],
    error_codes: [{ code: 'gadget_jammed', status: 422, description: 'The gadget is jammed.' }],
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: { colour: { type: 'string', default: 'red' }, size: { type: 'integer', minimum: 1, default: 3 } },
    },
    routes: [
      {
        operation: 'getGadget',
        method: 'GET',
        path: '/gadget',
        permission: 'gadgets:gadget:read',
        tenancy: 'none',
        category: 'test',
        read_only: true,
        summary: 'the gadget',
        response: { status: 200 },
      },
      {
        operation: 'jamGadget',
        method: 'GET',
        path: '/gadget/jam',
        permission: 'gadgets:gadget:read',
        tenancy: 'none',
        category: 'test',
        read_only: true,
        summary: 'jams it',
        response: { status: 200 },
      },
      {
        operation: 'breakGadget',
        method: 'GET',
        path: '/gadget/break',
        permission: 'gadgets:gadget:read',
        tenancy: 'none',
        category: 'test',
        read_only: true,
        summary: 'throws an undeclared code',
        response: { status: 200 },
      },
    ],
  },
  deps: { clock: coreServices.clock },
  setup: ({ clock }, { settings }) => ({
    handlers: {
      getGadget: () => ({
        status: 200,
        body: { colour: settings.colour, size: settings.size, year: clock.now().getUTCFullYear() },
      }),
      jamGadget: () => {
        throw new ApiError('gadget_jammed', 'Jammed by the test.');
      },
      breakGadget: () => {
        throw new ApiError('never_declared');
      },
    },
  }),
});

describe('extension points, typed services, and what a manifest adds to the catalogues', function () {
  this.timeout(120_000);

  it('lists the component types the enabled plugins contribute, naming each plugin', async () => {
    const k = await startKernel({ auth: { mode: 'none' }, plugins: ['system', 'components', COMPONENT_TYPES_FIXTURE] });
    try {
      const res = await k.request('GET', '/component-types');
      expect(res.status).to.equal(200);
      const counter = res.body.items.find((t: { name: string }) => t.name === 'widgets.counter');
      expect(counter).to.deep.include({ kind: 'source', plugin: 'widget-types' });
      expect(counter.config_schema.required).to.deep.equal(['every_seconds']);
      expect((await k.request('GET', '/component-types?kind=sink')).body.items).to.deep.equal([]);
    } finally {
      await k.close();
    }
  });

  it("drops a disabled plugin's contributions everywhere, and ignores contributions to a point nobody enabled offers", async () => {
    const without = await startKernel({ auth: { mode: 'none' }, plugins: ['system', 'components'] });
    try {
      expect(
        (await without.request('GET', '/component-types')).body.items.map((t: { name: string }) => t.name),
      ).to.not.include('widgets.counter');
    } finally {
      await without.close();
    }
    const noComponents = await startKernel({ auth: { mode: 'none' }, plugins: ['system', COMPONENT_TYPES_FIXTURE] });
    try {
      expect((await noComponents.request('GET', '/component-types')).status).to.equal(404);
      const doc = (await noComponents.request('GET', '/openapi.json')).body;
      expect(Object.keys(doc.paths)).to.not.include('/component-types');
    } finally {
      await noComponents.close();
    }
  });

  it('refuses to boot when a single point gets two contributions, naming both plugins', async () => {
    const error = await bootError({ plugins: ['system'] }, [sinkPlugin('sink-one'), sinkPlugin('sink-two')]);
    expect(error).to.contain('kernel.audit-sink takes one contribution; plugins sink-one and sink-two');
  });

  it('refuses to boot when a plugin depends on a service the kernel does not offer, naming both', async () => {
    const wanting = createPlugin({
      id: 'wanting',
      manifest: { id: 'wanting', version: '1.0.0', summary: 'x', routes: [] },
      deps: { teleporter: serviceRef<unknown>('teleporter') },
      setup: () => ({ handlers: {} }),
    });
    const error = await bootError({ plugins: ['system'] }, [wanting]);
    expect(error).to.contain('plugin wanting requires service "teleporter"');
  });

  it("hands a plugin its settings checked against its manifest's schema, with defaults, and merges its error codes into the catalogue and OpenAPI", async () => {
    const k = await startKernel(
      { auth: { mode: 'none' }, plugins: ['system'], settings: { gadgets: { size: 7 } } },
      { plugins: [gadgets] },
    );
    try {
      const got = await k.request('GET', '/gadget');
      expect(got.body).to.include({ colour: 'red', size: 7 });
      const jammed = await k.request('GET', '/gadget/jam');
      expect(jammed.status).to.equal(422);
      expect(jammed.body.error).to.deep.equal({ code: 'gadget_jammed', message: 'Jammed by the test.', status: 422 });
      const broken = await k.request('GET', '/gadget/break');
      expect(broken.status).to.equal(500);
      expect(broken.body.error.code).to.equal('internal_error');
      const doc = (await k.request('GET', '/openapi.json')).body;
      expect(doc.components.schemas.Error.properties.error.properties.code.enum).to.include.members([
        'gadget_jammed',
        'not_found',
      ]);
    } finally {
      await k.close();
    }
    const wrong = await bootError({ plugins: ['system'], settings: { gadgets: { size: 0 } } }, [gadgets]);
    expect(wrong).to.contain('settings.gadgets/size: must be >= 1');
  });

  it('refuses a plugin error code the kernel already has with another status', async () => {
    const clash = createPlugin({
      id: 'clash',
      manifest: {
        id: 'clash',
        version: '1.0.0',
        summary: 'x',
        error_codes: [{ code: 'not_found', status: 410, description: 'gone' }],
        routes: [],
      },
      deps: {},
      setup: () => ({ handlers: {} }),
    });
    expect(await bootError({ plugins: ['system'] }, [clash])).to.contain(
      'plugin clash: error code not_found is already declared by the kernel',
    );
  });
});
