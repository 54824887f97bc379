import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import type { TestKernel } from '../../support/kernel.js';
import { makeComponent, makeStream, messagesOf, runtimeKernel, start, unique, waitForState } from './helpers.js';

describe('connectors: webhook source', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let stream: string;
  let component: any;
  let secret: string;
  let path: string;
  before(async () => {
    tk = await runtimeKernel();
    stream = unique('hooks');
    await makeStream(tk, stream);
    component = await makeComponent(tk, { id: 'orders-hook', name: 'Orders hook', type: 'webhook', stream });
    secret = component.shown_once.secrets.secret;
    path = component.shown_once.path;
    await start(tk, component.id);
    await waitForState(tk, component.id, 'running');
  });
  after(() => tk?.close());

  const post = (body: string, headers: Record<string, string>) => tk.request('POST', path, { raw: body, headers });
  const sign = (body: string, key = secret) => `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

  it('shows its URL and generated secret once, on create, and never again', async () => {
    expect(path).to.equal('/hooks/default.orders-hook');
    expect(component.shown_once.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/default\.orders-hook$/);
    expect(secret).to.match(/^whsec_/);
    expect(component.config).to.deep.equal({});
    expect(component.secrets_set).to.deep.equal(['secret']);
    const read = await tk.request('GET', `/components/${component.id}`);
    expect(read.body).to.not.have.property('shown_once');
    expect(read.text).to.not.contain(secret);
    const listed = await tk.request('GET', '/components');
    expect(listed.text).to.not.contain(secret);
    const row = await tk.kernel.database.knex('components').where({ tenant_id: 'default', id: component.id }).first();
    expect(JSON.stringify(row)).to.not.contain(secret);
    expect(row.secrets).to.match(/^v1\./);
  });

  it('accepts the secret header and appends the body: 202 once durable', async () => {
    const res = await post('{"order":1}', { 'x-webhook-secret': secret, 'content-type': 'application/json' });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.duplicate).to.equal(false);
    const messages = await messagesOf(tk, stream);
    const found = messages.find((m) => m.id === res.body.id);
    expect(found.value).to.deep.equal({ order: 1 });
    expect(found.content_type).to.equal('application/json');
  });

  it('accepts an HMAC-SHA256 signature over the exact body, and a Bearer secret', async () => {
    const body = 'plain text, signed';
    const signed = await post(body, { 'x-signature-256': sign(body), 'content-type': 'text/plain' });
    expect(signed.status, signed.text).to.equal(202);
    const bearer = await post('by bearer', { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' });
    expect(bearer.status, bearer.text).to.equal(202);
  });

  it('refuses a wrong secret, a wrong or missing signature, a signature over other bytes: 401, nothing appended', async () => {
    const before = (await messagesOf(tk, stream)).length;
    const cases = [
      await post('x', { 'x-webhook-secret': `${secret}x`, 'content-type': 'text/plain' }),
      await post('x', { 'content-type': 'text/plain' }),
      await post('x', { 'x-signature-256': sign('x', 'not-the-secret-at-all'), 'content-type': 'text/plain' }),
      await post('tampered', { 'x-signature-256': sign('original'), 'content-type': 'text/plain' }),
    ];
    for (const res of cases) {
      expect(res.status, res.text).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
    }
    expect((await messagesOf(tk, stream)).length).to.equal(before);
  });

  it('appends a redelivery with the same Idempotency-Key once', async () => {
    const before = (await messagesOf(tk, stream)).length;
    const first = await post('{"once":true}', {
      'x-webhook-secret': secret,
      'idempotency-key': 'evt-1',
      'content-type': 'application/json',
    });
    const again = await post('{"once":true}', {
      'x-webhook-secret': secret,
      'idempotency-key': 'evt-1',
      'content-type': 'application/json',
    });
    expect([first.status, again.status]).to.deep.equal([202, 202]);
    expect(again.body).to.deep.equal({ id: first.body.id, duplicate: true });
    expect((await messagesOf(tk, stream)).length).to.equal(before + 1);
  });

  it('is audited in the hook tenant trail', async () => {
    const res = await post('{"audited":true}', { 'x-webhook-secret': secret, 'content-type': 'application/json' });
    const rows = await tk.kernel.database.knex('audit_records').where({ request_id: res.headers.get('x-request-id') });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ tenant_id: 'default', operation: 'receiveWebhook', status: 202 });
  });

  it('answers 404 for an unknown hook and 409 while the component is stopped', async () => {
    expect(
      (await tk.request('POST', '/hooks/default.nobody', { raw: 'x', headers: { 'x-webhook-secret': secret } })).status,
    ).to.equal(404);
    expect(
      (
        await tk.request('POST', '/hooks/other-tenant.orders-hook', {
          raw: 'x',
          headers: { 'x-webhook-secret': secret },
        })
      ).status,
    ).to.equal(404);
    await tk.request('POST', `/components/${component.id}/stop`, { body: {} });
    const res = await post('x', { 'x-webhook-secret': secret, 'content-type': 'text/plain' });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('component_not_running');
    await start(tk, component.id);
    await waitForState(tk, component.id, 'running');
  });

  it('takes a secret chosen by the client, still write-only', async () => {
    const chosen = 'a-client-chosen-secret-0123456789';
    const c = await makeComponent(tk, { name: unique('hook2'), type: 'webhook', stream, config: { secret: chosen } });
    expect(c.shown_once.secrets).to.deep.equal({});
    expect(JSON.stringify(c)).to.not.contain(chosen);
  });
});
