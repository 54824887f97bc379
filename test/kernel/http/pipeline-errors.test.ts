import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import type { PluginDefinition } from '../../../kernel/types.js';

/** A plugin made for these tests: one JSON route with a strict schema and one binary route. */
const echoPlugin: PluginDefinition = {
  id: 'echo',
  manifest: {
    id: 'echo',
    version: '1.0.0',
    summary: 'Echo routes for kernel tests',
    permissions: [{ name: 'test:echo:write', description: 'echo' }],
    routes: [
      {
        operation: 'echoJson',
        method: 'POST',
        path: '/echo',
        permission: 'test:echo:write',
        category: 'test',
        read_only: false,
        summary: 'Echo a JSON body',
        body: {
          type: 'object',
          required: ['n'],
          additionalProperties: false,
          properties: { n: { type: 'integer' }, s: { type: 'string' } },
        },
        response: { status: 200, schema: { type: 'object' } },
        audit: { class: 'none', reason: 'test route' },
      },
      {
        operation: 'echoBytes',
        method: 'POST',
        path: '/echo/bytes',
        permission: 'test:echo:write',
        category: 'test',
        read_only: false,
        summary: 'Count the bytes of a binary body',
        body_type: 'octet-stream',
        response: { status: 200, schema: { type: 'object' } },
        audit: { class: 'none', reason: 'test route' },
      },
      {
        operation: 'echoFail',
        method: 'GET',
        path: '/echo/fail',
        permission: 'test:echo:write',
        category: 'test',
        read_only: true,
        summary: 'Throws an unexpected error',
        response: { status: 200 },
      },
    ],
  },
  setup: () => ({
    handlers: {
      echoJson: (call) => ({ status: 200, body: { received: call.body, tenant: call.tenantId } }),
      echoBytes: (call) => ({ status: 200, body: { bytes: (call.body as Buffer).length } }),
      echoFail: () => {
        throw new Error('database password is hunter2');
      },
    },
  }),
};

describe('kernel request pipeline', () => {
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel(
      { plugins: ['system'], auth: { mode: 'none' }, http: { body_limit_bytes: 2048, binary_limit_bytes: 4096 } },
      { plugins: [echoPlugin] },
    );
  });
  after(() => tk.close());

  it('echoes the X-Request-Id it was given and makes one when none is sent', async () => {
    const given = await tk.request('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).to.equal('abc-123');
    const made = await tk.request('GET', '/health');
    expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await tk.request('POST', '/echo', { raw: '{"n": ' });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.', status: 400 },
    });
  });

  it('answers a wrong type with 400 validation_error naming the JSON pointer', async () => {
    const res = await tk.request('POST', '/echo', { body: { n: 'seven' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_error');
    expect(res.body.error.details).to.deep.include({ in: 'body', pointer: '/n', message: 'must be integer' });
  });

  it('answers an unknown field with 400 when the schema forbids extra fields', async () => {
    const res = await tk.request('POST', '/echo', { body: { n: 1, extra: true } });
    expect(res.status).to.equal(400);
    expect(res.body.error.details).to.deep.include({
      in: 'body',
      pointer: '/extra',
      message: 'is not an allowed field',
    });
  });

  it('answers a missing required body with 400 validation_error', async () => {
    const res = await tk.request('POST', '/echo');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_error');
  });

  it('answers a JSON body over the limit with 413 payload_too_large', async () => {
    const res = await tk.request('POST', '/echo', { body: { n: 1, s: 'x'.repeat(5000) } });
    expect(res.status).to.equal(413);
    expect(res.body.error).to.include({ code: 'payload_too_large', status: 413 });
  });

  it('answers a non-JSON content type on a JSON route with 415', async () => {
    const res = await tk.request('POST', '/echo', { raw: 'n=1', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).to.equal(415);
    expect(res.body.error.code).to.equal('unsupported_media_type');
  });

  it('hands octet-stream bodies to the handler as bytes, with their own limit', async () => {
    const ok = await tk.request('POST', '/echo/bytes', {
      raw: Buffer.alloc(3000, 1),
      contentType: 'application/octet-stream',
    });
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({ bytes: 3000 });
    const big = await tk.request('POST', '/echo/bytes', {
      raw: Buffer.alloc(5000, 1),
      contentType: 'application/octet-stream',
    });
    expect(big.status).to.equal(413);
  });

  it('answers an unknown path with 404 not_found in the error shape', async () => {
    const res = await tk.request('GET', '/no/such/thing');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.include({ code: 'not_found', status: 404 });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await tk.request('DELETE', '/echo');
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('POST');
    expect(res.body.error.code).to.equal('method_not_allowed');
  });

  it('hides the text of an unexpected error behind a 500 internal_error', async () => {
    const res = await tk.request('GET', '/echo/fail');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ error: { code: 'internal_error', message: 'Internal error.', status: 500 } });
    expect(res.text).to.not.include('hunter2');
  });

  it('resolves the tenant from the body on writes', async () => {
    const res = await tk.request('POST', '/echo', { body: { n: 1, tenant_id: 'acme' } });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ received: { n: 1, tenant_id: 'acme' }, tenant: 'acme' });
  });
});
