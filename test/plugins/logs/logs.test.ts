import { expect } from 'chai';
import type { PluginDefinition } from '../../../kernel/types.js';
import { coreServices, createPlugin } from '../../../kernel/plugin/api.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { as, headerAuthPlugin } from '../../kernel/pipeline/helpers.js';

/** A plugin that writes to the runtime log from inside a request's transaction. */
const writerPlugin: PluginDefinition = createPlugin({
  id: 'log-writer',
  deps: { logs: coreServices.logs },
  manifest: {
    id: 'log-writer',
    version: '1.0.0',
    summary: 'Writes runtime log records',
    permissions: [{ name: 'test:log:write', description: 'write' }],
    routes: [
      {
        operation: 'writeLog',
        method: 'POST',
        path: '/log-writer',
        permission: 'test:log:write',
        category: 'test',
        read_only: false,
        summary: 'Write a log record',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['message'],
          properties: { message: { type: 'string' } },
        },
        response: { status: 202 },
        audit: { class: 'none', reason: 'test route' },
      },
    ],
  },
  setup: ({ logs }) => ({
    handlers: {
      async writeLog(call) {
        await logs.write({
          tenantId: call.tenantId as string,
          level: 'warn',
          source: 'log-writer',
          message: (call.body as { message: string }).message,
          fields: { request: call.requestId },
        });
        return { status: 202, body: { accepted: true } };
      },
    },
  }),
});

describe('GET /logs', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: ['system', 'logs'] }, { plugins: [headerAuthPlugin, writerPlugin] });
  });
  after(() => k.close());

  it('serves records other plugins wrote through the log sink, even from inside a transaction', async () => {
    const wrote = await k.request('POST', '/log-writer', {
      body: { message: 'disk almost full' },
      headers: as('alice', 'acme', ['test:log:write']),
    });
    expect(wrote.status).to.equal(202);
    await k.kernel.services.logs!.flush!();
    const res = await k.request('GET', '/logs', { headers: as('alice', 'acme', ['runtime:log:read']) });
    expect(res.status).to.equal(200);
    expect(res.body.items).to.have.length(1);
    expect(res.body.items[0]).to.include({
      tenant_id: 'acme',
      level: 'warn',
      source: 'log-writer',
      message: 'disk almost full',
    });
    expect(res.body.items[0].fields).to.deep.equal({ request: wrote.headers.get('x-request-id') });
    expect(res.body.items[0].time).to.match(/Z$/);
  });

  it('shows a tenant only its own records and needs runtime:log:read', async () => {
    const other = await k.request('GET', '/logs', { headers: as('bob', 'other', ['runtime:log:read']) });
    expect(other.body.items).to.have.length(0);
    const denied = await k.request('GET', '/logs', { headers: as('alice', 'acme', []) });
    expect(denied.status).to.equal(403);
  });

  it('refuses an unknown level', async () => {
    const res = await k.request('GET', '/logs?level=loud', { headers: as('alice', 'acme', ['runtime:log:read']) });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_error');
  });
});
