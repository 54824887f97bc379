import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('streams: definitions, limits and bad input', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'streams'],
      auth: { mode: 'none' },
      settings: { streams: { max_message_bytes: 100, max_batch_bytes: 250 } },
    });
    const res = await tk.request('POST', '/streams', {
      body: { name: 'Sensor Readings', partitions: 2, retention: { max_age_hours: 24 } },
    });
    expect(res.status, res.text).to.equal(201);
  });
  after(() => tk?.close());

  const publish = (body: unknown, stream = 'sensor-readings') =>
    tk.request('POST', `/streams/${stream}/messages`, { body });

  function expectError(res: { status: number; body: any }, status: number, code: string, pointer?: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.error).to.include({ code, status });
    if (pointer) expect(res.body.error.details.map((d: any) => d.pointer)).to.include(pointer);
  }

  it('creates, reads, lists, changes and deletes a stream', async () => {
    const got = await tk.request('GET', '/streams/sensor-readings');
    expect(got.body).to.include({
      id: 'sensor-readings',
      name: 'Sensor Readings',
      partitions: 2,
      codec: null,
      revision: 1,
    });
    expect(got.body.retention).to.deep.equal({ max_age_hours: 24 });
    expect((await tk.request('GET', '/streams')).body.items.map((s: any) => s.id)).to.include('sensor-readings');
    const patched = await tk.request('PATCH', '/streams/sensor-readings', {
      body: { partitions: 3, retention: { max_messages: 10 } },
    });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({ partitions: 3, revision: 2 });
    expect(patched.body.retention).to.deep.equal({ max_messages: 10 });
    const onNew = await publish({ messages: Array.from({ length: 6 }, () => ({ value: 1 })) });
    expect(onNew.body.messages.map((m: any) => m.partition)).to.include(2);
    expectError(
      await tk.request('PATCH', '/streams/sensor-readings', { body: { partitions: 1 } }),
      400,
      'validation_error',
      '/partitions',
    );
    expectError(
      await tk.request('POST', '/streams', { body: { name: 'sensor readings' } }),
      409,
      'duplicate_identifier',
    );
    await tk.request('POST', '/streams', { body: { id: 'short-lived', name: 'x' } });
    expect((await tk.request('DELETE', '/streams/short-lived')).status).to.equal(204);
    expect((await tk.request('GET', '/streams/short-lived')).status).to.equal(404);
    expect((await tk.request('DELETE', '/streams/short-lived')).status).to.equal(404);
  });

  it('takes 1 to 64 partitions', async () => {
    expectError(
      await tk.request('POST', '/streams', { body: { name: 'none', partitions: 0 } }),
      400,
      'validation_error',
      '/partitions',
    );
    expectError(
      await tk.request('POST', '/streams', { body: { name: 'many', partitions: 65 } }),
      400,
      'validation_error',
      '/partitions',
    );
    expect((await tk.request('POST', '/streams', { body: { name: 'widest', partitions: 64 } })).status).to.equal(201);
  });

  it('refuses a codec when no codecs plugin is enabled', async () => {
    const res = await tk.request('POST', '/streams', { body: { name: 'encoded', codec: 'orders-avro' } });
    expectError(res, 400, 'validation_error', '/codec');
    expect(res.body.error.message).to.match(/no codecs plugin/);
  });

  it('answers 404 for publishing to or reading a stream that does not exist', async () => {
    expectError(await publish({ messages: [{ value: 1 }] }, 'missing'), 404, 'not_found');
    expectError(await tk.request('GET', '/streams/missing/messages'), 404, 'not_found');
    expectError(await tk.request('GET', '/streams/missing/consumers'), 404, 'not_found');
    expectError(await tk.request('GET', '/messages/msg_missing'), 404, 'not_found');
    expectError(await tk.request('GET', '/messages/msg_missing/body'), 404, 'not_found');
  });

  it('refuses invalid base64 naming the message', async () => {
    const res = await publish({ messages: [{ value: 1 }, { body_base64: 'not base64!' }] });
    expectError(res, 400, 'validation_error', '/messages/1/body_base64');
    expect(res.body.error.message).to.match(/Message 1/);
    expectError(
      await publish({ messages: [{ body_base64: 'QUJD' }, { body_base64: 'QUJ' }] }),
      400,
      'validation_error',
      '/messages/1/body_base64',
    );
  });

  it('refuses a message over the body limit, and a batch over the batch limit, naming the message', async () => {
    expectError(
      await publish({ messages: [{ value: 'a' }, { value: 'x'.repeat(200) }] }),
      413,
      'payload_too_large',
      '/messages/1',
    );
    expectError(
      await publish({ messages: [{ value: 'x'.repeat(90) }, { value: 'x'.repeat(90) }, { value: 'x'.repeat(90) }] }),
      413,
      'payload_too_large',
      '/messages/2',
    );
    const raw = await tk.request('POST', '/streams/sensor-readings/messages', {
      raw: Buffer.alloc(101),
      contentType: 'application/octet-stream',
    });
    expectError(raw, 413, 'payload_too_large');
  });

  it('takes 1 to 1000 messages, at most 64 headers each, and a value or a body', async () => {
    expectError(await publish({ messages: [] }), 400, 'validation_error', '/messages');
    expectError(
      await publish({ messages: Array.from({ length: 1001 }, () => ({ value: 1 })) }),
      400,
      'validation_error',
      '/messages',
    );
    const headers = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`h${i}`, 'v']));
    expectError(await publish({ messages: [{ value: 1, headers }] }), 400, 'validation_error', '/messages/0/headers');
    expectError(await publish({ messages: [{ key: 'k' }] }), 400, 'validation_error');
    expectError(
      await tk.request('POST', '/streams/sensor-readings/messages', { raw: 'hello', contentType: 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await tk.request('POST', '/streams/sensor-readings/messages', {
        raw: '{"messages":',
        contentType: 'application/json',
      }),
      400,
      'invalid_json',
    );
  });

  it('stores nothing on a dry run, and one audit record per publish', async () => {
    const before = (await tk.kernel.database.knex('streams_messages').count('* as n'))[0]?.n;
    const dry = await tk.request('POST', '/streams/sensor-readings/messages?dry_run=true', {
      body: { messages: [{ value: 1 }] },
    });
    expect(dry.status).to.be.oneOf([200, 201]);
    expect((await tk.kernel.database.knex('streams_messages').count('* as n'))[0]?.n).to.equal(before);
    const res = await publish({ messages: [{ value: 1 }, { value: 2 }] });
    const records = await tk.kernel.database
      .knex('audit_records')
      .where({ request_id: res.headers.get('x-request-id') });
    expect(records).to.have.length(1);
    expect(records[0]).to.include({ operation: 'publishMessages', resource_id: 'sensor-readings', outcome: 'success' });
    expect(records[0].detail).to.include({ messages: 2 });
  });
});
