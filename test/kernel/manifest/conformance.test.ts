import { expect } from 'chai';
import { loadConfig } from '../../../kernel/config/load.js';
import { createKernel } from '../../../kernel/boot.js';
import type { Manifest, RouteDecl } from '../../../kernel/manifest/types.js';
import type { Handler, PluginDefinition } from '../../../kernel/types.js';
import { testDatabase } from '../../support/kernel.js';

const listRoute: RouteDecl = {
  operation: 'listWidgets',
  method: 'GET',
  path: '/widgets',
  permission: 'test:widget:read',
  category: 'test',
  read_only: true,
  summary: 'List widgets',
  response: { status: 200, schema: { type: 'object', properties: { items: { type: 'array' } } } },
  paging: { default_limit: 10, max_limit: 100, cursor_in: 'header', key: ['id'] },
};
const createRoute: RouteDecl = {
  operation: 'createWidget',
  method: 'POST',
  path: '/widgets',
  permission: 'test:widget:write',
  category: 'test',
  read_only: false,
  summary: 'Create a widget',
  body: { type: 'object' },
  response: { status: 201 },
  audit: { class: 'change' },
};

function widgetPlugin(
  routes: RouteDecl[],
  handlers: Record<string, Handler>,
  permissions = ['test:widget:read', 'test:widget:write'],
): PluginDefinition {
  const manifest: Manifest = {
    id: 'widgets',
    version: '1.0.0',
    summary: 'Widgets for conformance tests',
    permissions: permissions.map((name) => ({ name, description: name })),
    routes,
  };
  return { id: 'widgets', manifest, setup: () => ({ handlers }) };
}

const ok: Handler = () => ({ status: 200, body: { items: [] } });

async function bootError(plugin: PluginDefinition): Promise<Error> {
  const config = loadConfig({
    profile: 'test',
    env: {},
    overrides: { plugins: ['system'], auth: { mode: 'none' }, database: testDatabase() },
  });
  try {
    const kernel = await createKernel({ config, plugins: [plugin] });
    await kernel.close();
  } catch (err) {
    return err as Error;
  }
  throw new Error('the kernel booted although the plugin is not conformant');
}

describe('boot conformance', () => {
  it('refuses to boot when a route has no handler, naming the plugin and operation', async () => {
    const err = await bootError(widgetPlugin([listRoute, createRoute], { listWidgets: ok }));
    expect(err.name).to.equal('ConformanceError');
    expect(err.message).to.include('plugin widgets, operation createWidget: the route has no handler');
  });

  it('refuses to boot when a list route declares no paging policy', async () => {
    const { paging: _omitted, ...unpaged } = listRoute;
    const err = await bootError(widgetPlugin([unpaged], { listWidgets: ok }));
    expect(err.message).to.include('plugin widgets, operation listWidgets: a list route has no paging policy');
  });

  it('refuses to boot when a handler has no route', async () => {
    const err = await bootError(widgetPlugin([listRoute], { listWidgets: ok, dropWidgets: ok }));
    expect(err.message).to.include('plugin widgets, operation dropWidgets: the handler has no route');
  });

  it('refuses to boot when a mutating route has no audit class', async () => {
    const { audit: _omitted, ...unaudited } = createRoute;
    const err = await bootError(widgetPlugin([unaudited], { createWidget: ok }));
    expect(err.message).to.include(
      'plugin widgets, operation createWidget: a mutating route (POST) has no audit class',
    );
  });

  it('refuses to boot when a route outside a transaction declares an idempotency key', async () => {
    const err = await bootError(
      widgetPlugin([{ ...createRoute, transaction: false, idempotency: 'idempotency_key' }], { createWidget: ok }),
    );
    expect(err.message).to.include(
      'plugin widgets, operation createWidget: transaction false cannot go with an idempotency key',
    );
  });

  it('refuses an etag whose field the response lacks, If-Match on a GET, or an etag with no body to read', async () => {
    const getRoute: RouteDecl = {
      ...createRoute,
      operation: 'getWidget',
      method: 'GET',
      path: '/widgets/{id}',
      read_only: true,
      response: { status: 200, schema: { type: 'object', properties: { revision: { type: 'integer' } } } },
    };
    const err = await bootError(
      widgetPlugin(
        [
          { ...getRoute, etag: { field: 'version', if_match: true } },
          { ...createRoute, etag: { field: 'revision' } },
        ],
        { getWidget: ok, createWidget: ok },
      ),
    );
    for (const problem of [
      'operation getWidget: etag.field version is not a property of the response schema',
      'operation getWidget: etag.if_match is declared on a GET route',
      'operation createWidget: etag is declared but the route answers no body to take the version from',
    ])
      expect(err.message).to.include(`plugin widgets, ${problem}`);
  });

  it('refuses to boot when a route names an undeclared permission', async () => {
    const err = await bootError(widgetPlugin([listRoute], { listWidgets: ok }, ['test:widget:write']));
    expect(err.message).to.include(
      'plugin widgets, operation listWidgets: permission test:widget:read is not declared by any enabled plugin',
    );
  });

  it('lists every problem at once, one line each', async () => {
    const { paging: _p, ...unpaged } = listRoute;
    const err = await bootError(widgetPlugin([unpaged, createRoute], { listWidgets: ok, extra: ok }));
    const lines = err.message.split('\n').filter((line) => line.includes('plugin widgets'));
    expect(lines).to.have.length(3);
  });

  it('refuses a manifest that breaks the manifest schema, naming the file and the JSON pointer', async () => {
    const broken = {
      ...widgetPlugin([listRoute], { listWidgets: ok }),
      manifest: {
        id: 'widgets',
        version: 'one',
        summary: 'x',
        routes: [{ ...listRoute, method: 'FETCH' }],
      } as unknown as Manifest,
    };
    const err = await bootError(broken);
    expect(err.name).to.equal('ManifestError');
    expect(err.message).to.include('widgets (inline manifest): /version');
    expect(err.message).to.include('/routes/0/method');
  });
});

describe('boot conformance of WebSocket and event-stream routes', () => {
  const socketRoute: RouteDecl = {
    operation: 'openWidgetSocket',
    method: 'GET',
    path: '/widgets/{id}/ws',
    permission: 'test:widget:read',
    category: 'test',
    read_only: true,
    summary: 'Watch a widget',
    upgrade: 'websocket',
    ticket: { channel: 'widget', resource_param: 'id' },
    response: { status: 101 },
  };
  const streamRoute: RouteDecl = {
    operation: 'streamWidgets',
    method: 'GET',
    path: '/widgets/events',
    permission: 'test:widget:read',
    category: 'test',
    read_only: true,
    summary: 'Widget events',
    stream: 'sse',
    response: { status: 200 },
  };

  it('refuses a WebSocket route that is no GET, is public, declares no ticket channel or answers other than 101', async () => {
    const { ticket: _t, ...unticketed } = socketRoute;
    const err = await bootError(
      widgetPlugin(
        [
          {
            ...unticketed,
            method: 'POST',
            permission: 'public',
            response: { status: 200 },
            audit: { class: 'action' },
          },
        ],
        { openWidgetSocket: ok },
      ),
    );
    const at = 'plugin widgets, operation openWidgetSocket';
    expect(err.message).to.include(`${at}: a WebSocket route must be a GET`);
    expect(err.message).to.include(`${at}: a WebSocket route opens with a ticket, so it cannot be public`);
    expect(err.message).to.include(`${at}: a WebSocket route declares its ticket channel (ticket.channel)`);
    expect(err.message).to.include(`${at}: a WebSocket route answers status 101`);
  });

  it('refuses a ticket bound to a parameter the route does not have, or minted by an unknown operation', async () => {
    const err = await bootError(
      widgetPlugin(
        [{ ...socketRoute, ticket: { channel: 'widget', resource_param: 'room', minted_by: 'mintNothing' } }],
        { openWidgetSocket: ok },
      ),
    );
    expect(err.message).to.include('ticket.resource_param room is neither a path parameter nor a query field');
    expect(err.message).to.include('ticket.minted_by names no operation of an enabled plugin (mintNothing)');
  });

  it('refuses an event stream with paging, a body or a status other than 200, and status 101 or a ticket elsewhere', async () => {
    const err = await bootError(
      widgetPlugin(
        [
          {
            ...streamRoute,
            response: { status: 201, schema: { type: 'object', properties: { items: { type: 'array' } } } },
            paging: { default_limit: 1, max_limit: 2, cursor_in: 'header', key: ['id'] },
            body: { type: 'object' },
          },
          { ...listRoute, response: { status: 101 }, ticket: { channel: 'widget' } },
        ],
        { streamWidgets: ok, listWidgets: ok },
      ),
    );
    const stream = 'plugin widgets, operation streamWidgets';
    expect(err.message).to.include(`${stream}: an event-stream route cannot declare paging`);
    expect(err.message).to.include(`${stream}: an event-stream route takes no request body`);
    expect(err.message).to.include(`${stream}: an event-stream route answers status 200`);
    expect(err.message).to.include('plugin widgets, operation listWidgets: status 101 is for WebSocket routes only');
    expect(err.message).to.include(
      'plugin widgets, operation listWidgets: ticket is declared but the route does not upgrade to a WebSocket',
    );
  });

  it('boots conformant WebSocket and event-stream routes', async () => {
    const config = loadConfig({
      profile: 'test',
      env: {},
      overrides: { plugins: ['system'], auth: { mode: 'none' }, database: testDatabase() },
    });
    const kernel = await createKernel({
      config,
      plugins: [widgetPlugin([socketRoute, streamRoute], { openWidgetSocket: ok, streamWidgets: ok })],
    });
    try {
      expect(kernel.catalog.byOperation('openWidgetSocket')?.schemas.query?.properties).to.have.property('ticket');
    } finally {
      await kernel.close();
    }
  });
});
