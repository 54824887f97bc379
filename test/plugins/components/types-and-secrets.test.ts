import { expect } from 'chai';
import { open, SECRET_KEY_NAME } from '../../../plugins/components/secrets.js';
import type { TestKernel } from '../../support/kernel.js';
import { makeStream, runtimeKernel, start, unique, waitForState } from '../connectors/helpers.js';
import { until } from '../../support/poll.js';

describe('components: typed, validated, with write-only secrets and a status', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let stream: string;
  before(async () => {
    tk = await runtimeKernel();
    stream = unique('in');
    await makeStream(tk, stream);
  });
  after(() => tk?.close());

  const create = (body: Record<string, unknown>) => tk.request('POST', '/components', { body });
  const row = (id: string, tenant = 'default') =>
    tk.kernel.database.knex('components').where({ tenant_id: tenant, id }).first();
  const pointers = (res: { body: any }) => (res.body.error?.details ?? []).map((d: any) => d.pointer);
  const mqttConfig = {
    url: 'mqtt://127.0.0.1:1883',
    topic: 'rt-test/secrets',
    username: 'u',
    password: 'hunter2-mqtt-password',
  };

  it('requires a type that some enabled plugin contributes (400 naming type)', async () => {
    const missing = await create({ name: 'no type' });
    expect(missing.status).to.equal(400);
    expect(JSON.stringify(missing.body.error.details)).to.contain('type');
    const unknown = await create({ name: 'unknown type', type: 'carrier.pigeon' });
    expect(unknown.status).to.equal(400);
    expect(pointers(unknown)).to.deep.equal(['/type']);
    expect(await row('unknown-type')).to.equal(undefined);
  });

  it('validates config against the type schema, naming the field', async () => {
    const noTopic = await create({
      name: 'no topic',
      type: 'mqtt.subscribe',
      stream,
      config: { url: 'mqtt://127.0.0.1:1883' },
    });
    expect(noTopic.status).to.equal(400);
    expect(pointers(noTopic)).to.include('/config/topic');
    const badQos = await create({
      name: 'bad qos',
      type: 'mqtt.subscribe',
      stream,
      config: { url: 'mqtt://127.0.0.1:1883', topic: 't', qos: 7 },
    });
    expect(pointers(badQos)).to.include('/config/qos');
    const extra = await create({
      name: 'extra',
      type: 'mqtt.subscribe',
      stream,
      config: { ...mqttConfig, colour: 'red' },
    });
    expect(pointers(extra)).to.include('/config/colour');
  });

  it('a source names an existing stream of its tenant', async () => {
    const none = await create({ name: 'streamless', type: 'mqtt.subscribe', config: mqttConfig });
    expect(pointers(none)).to.deep.equal(['/stream']);
    const missing = await create({
      name: 'nowhere',
      type: 'mqtt.subscribe',
      stream: 'no-such-stream',
      config: mqttConfig,
    });
    expect(pointers(missing)).to.deep.equal(['/stream']);
    const foreign = await create({
      name: 'foreign',
      type: 'mqtt.subscribe',
      stream,
      config: mqttConfig,
      tenant_id: 'other-tenant',
    });
    expect(pointers(foreign)).to.deep.equal(['/stream']);
  });

  it('stores secrets encrypted with the kernel key and never returns them; shows which are set', async () => {
    const res = await create({
      id: 'secretive',
      name: 'secretive',
      type: 'mqtt.subscribe',
      stream,
      config: mqttConfig,
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.config).to.deep.equal({
      url: mqttConfig.url,
      topic: mqttConfig.topic,
      username: 'u',
      qos: 1,
      session_expiry_seconds: 86400,
      receive_maximum: 65535,
    });
    expect(res.body.secrets_set).to.deep.equal(['password']);
    expect(res.text).to.not.contain('hunter2');
    expect((await tk.request('GET', '/components/secretive')).text).to.not.contain('hunter2');
    expect((await tk.request('GET', '/components?type=mqtt.subscribe')).body.items.map((c: any) => c.id)).to.include(
      'secretive',
    );

    const stored = await row('secretive');
    expect(JSON.stringify(stored)).to.not.contain('hunter2');
    expect(stored.secrets).to.match(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const key = await tk.kernel.services.secrets.key(SECRET_KEY_NAME);
    expect(open(key, stored.secrets, { tenantId: 'default', id: 'secretive' })).to.deep.equal({
      password: mqttConfig.password,
    });
    // Bound to its row: the same ciphertext does not open as another component's.
    expect(() => open(key, stored.secrets, { tenantId: 'default', id: 'other' })).to.throw();
  });

  it('keeps a secret a change leaves out, and clears one set to null', async () => {
    const patched = await tk.request('PATCH', '/components/secretive', {
      body: { config: { topic: 'rt-test/other' } },
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.secrets_set).to.deep.equal(['password']);
    const key = await tk.kernel.services.secrets.key(SECRET_KEY_NAME);
    expect(open(key, (await row('secretive')).secrets, { tenantId: 'default', id: 'secretive' })).to.deep.equal({
      password: mqttConfig.password,
    });
    const replaced = await tk.request('PUT', '/components/secretive', {
      body: { name: 'secretive', stream, config: { url: mqttConfig.url, topic: 't2' } },
    });
    expect(replaced.status, replaced.text).to.equal(200);
    expect(replaced.body.secrets_set).to.deep.equal(['password']);
    const cleared = await tk.request('PATCH', '/components/secretive', { body: { config: { password: null } } });
    expect(cleared.body.secrets_set).to.deep.equal([]);
    expect((await row('secretive')).secrets).to.equal(null);
    const invalid = await tk.request('PATCH', '/components/secretive', { body: { config: { qos: 'high' } } });
    expect(pointers(invalid)).to.include('/config/qos');
  });

  it('shows status {state, last_error, since}; since moves only when the state changes', async () => {
    const c = (await create({ name: unique('timer'), type: 'timer', stream, config: { every_seconds: 3600 } })).body;
    expect(c.status).to.include({ state: 'stopped', last_error: null });
    expect(c.desired_state).to.equal('stopped');
    await start(tk, c.id);
    const running = await waitForState(tk, c.id, 'running');
    expect(Date.parse(running.since)).to.be.greaterThan(Date.parse(c.status.since) - 1);
    const again = await tk.request('POST', `/components/${c.id}/start`, { body: {} });
    expect(again.body.component.status.since).to.equal(running.since);
    const stopped = await tk.request('POST', `/components/${c.id}/stop`, { body: {} });
    expect(stopped.body).to.deep.include({ action: 'stop', previous_state: 'running' });
    expect(stopped.body.component.status.state).to.equal('stopped');
  });

  it('restart really restarts a running source (a new start is logged), and it runs again', async () => {
    const c = (await create({ name: unique('timer'), type: 'timer', stream, config: { every_seconds: 3600 } })).body;
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');
    const starts = async () =>
      (
        await tk.kernel.database
          .knex('runtime_logs')
          .where({ tenant_id: 'default', source: 'components', message: 'source started' })
          .whereRaw("fields->>'component' = ?", [c.id])
      ).length;
    await until(async () => (await starts()) === 1, 30_000, { what: 'first start logged' });
    const res = await tk.request('POST', `/components/${c.id}/restart`, { body: {} });
    expect(res.status).to.equal(200);
    await until(async () => (await starts()) === 2, 30_000, { what: 'second start logged' });
    await waitForState(tk, c.id, 'running');
  });

  it('marks components made before types as legacy: readable, not startable (409)', async () => {
    await tk.kernel.database
      .knex('components')
      .insert({ tenant_id: 'default', id: 'old-one', name: 'Old', created_at: new Date(), updated_at: new Date() });
    const read = await tk.request('GET', '/components/old-one');
    expect(read.body).to.include({ type: 'legacy', state: 'stopped' });
    const started = await tk.request('POST', '/components/old-one/start', { body: {} });
    expect(started.status).to.equal(409);
    expect(started.body.error.code).to.equal('component_type_unavailable');
    expect(
      (await tk.request('PATCH', '/components/old-one', { body: { description: 'still editable' } })).status,
    ).to.equal(200);
  });

  it("keeps tenants apart: another tenant's component is 404 for start", async () => {
    expect((await create({ id: 'mine', name: 'mine', type: 'passthrough', tenant_id: 'tenant-x' })).status).to.equal(
      201,
    );
    expect((await tk.request('POST', '/components/mine/start', { body: { tenant_id: 'tenant-y' } })).status).to.equal(
      404,
    );
  });
});
