import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, auditRows, headerAuthPlugin } from './helpers.js';

describe('?dry_run=true on mutating routes', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
    await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'Existing', tags: ['keep'] },
      headers: as('alice', 'acme'),
    });
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;

  it('reports what a create would do, names the permission and tenant, and persists nothing', async () => {
    const res = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'Ghost' },
      headers: as('alice', 'acme'),
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      dry_run: true,
      persisted: false,
      operation: 'createComponent',
      tenant_id: 'acme',
      permission: 'runtime:component:write',
    });
    expect(res.body.would.status).to.equal(201);
    // A processor runs from its creation (it has nothing of its own to start).
    expect(res.body.would.body).to.include({ id: 'ghost', name: 'Ghost', state: 'running', tenant_id: 'acme' });
    expect(res.body.would.headers).to.deep.equal({ Location: '/components/ghost' });
    expect(await db()('components').where({ id: 'ghost' }).first()).to.equal(undefined);
  });

  it('leaves a dry-run marker in the audit trail, never a record of an effect', async () => {
    const res = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'Marker' },
      headers: as('alice', 'acme'),
    });
    const rows = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ outcome: 'dry_run', status: 201, resource_id: 'marker' });
    expect(rows[0]!.detail).to.include({ dry_run: true });
    expect(await auditRows(db(), { resource_id: 'marker', outcome: 'success' })).to.have.length(0);
  });

  it('shows the resulting resource of a change and of a supervisor action without applying them', async () => {
    const patch = await k.request('PATCH', '/components/existing?dry_run=true', {
      body: { name: 'Renamed' },
      headers: as('alice', 'acme'),
    });
    expect(patch.body.would.body).to.include({ name: 'Renamed', revision: 2 });
    const stop = await k.request('POST', '/components/existing/stop?dry_run=true', {
      body: {},
      headers: as('alice', 'acme'),
    });
    expect(stop.body.would.body).to.deep.include({ action: 'stop', previous_state: 'running' });
    expect(stop.body.would.body.component.state).to.equal('stopped');
    const del = await k.request('DELETE', '/components/existing?dry_run=true', { headers: as('alice', 'acme') });
    expect(del.body.would).to.deep.equal({ status: 204 });
    const row = await db()('components').where({ tenant_id: 'acme', id: 'existing' }).first();
    expect(row).to.include({ name: 'Existing', state: 'running', revision: 1 });
  });

  it('still authenticates, resolves the tenant, checks the permission and validates', async () => {
    const anonymous = await k.request('POST', '/components?dry_run=true', { body: { type: 'passthrough', name: 'X' } });
    expect(anonymous.status).to.equal(401);
    const forbidden = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'X' },
      headers: as('bob', 'acme', ['runtime:component:read']),
    });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.error.message).to.contain('runtime:component:write');
    const foreign = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'X', tenant_id: 'other' },
      headers: as('bob', 'acme'),
    });
    expect(foreign.status).to.equal(404);
    const invalid = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'X', bogus: 1 },
      headers: as('bob', 'acme'),
    });
    expect(invalid.status).to.equal(400);
    const duplicate = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'Existing' },
      headers: as('bob', 'acme'),
    });
    expect(duplicate.status).to.equal(409);
    const flag = await k.request('POST', '/components?dry_run=maybe', {
      body: { type: 'passthrough', name: 'X' },
      headers: as('bob', 'acme'),
    });
    expect(flag.status).to.equal(400);
    const refused = await auditRows(db(), { request_id: forbidden.headers.get('x-request-id') });
    expect(refused[0]).to.include({ outcome: 'refused', status: 403 });
    expect(refused[0]!.detail).to.include({ dry_run: true });
  });

  it('neither reads nor consumes an idempotency key: the real call with that key runs', async () => {
    const dry = await k.request('POST', '/components?dry_run=true', {
      body: { type: 'passthrough', name: 'Keyed' },
      headers: { ...as('alice', 'acme'), 'idempotency-key': 'dry-key' },
    });
    expect(dry.status).to.equal(200);
    expect(await db()('kernel_idempotency_keys').where({ key: 'dry-key' }).first()).to.equal(undefined);
    const real = await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'Keyed' },
      headers: { ...as('alice', 'acme'), 'idempotency-key': 'dry-key' },
    });
    expect(real.status).to.equal(201);
    expect(real.headers.get('idempotent-replayed')).to.equal(null);
  });

  it("works on a third-party plugin's routes with no code in the plugin", async () => {
    const res = await k.request('POST', '/notes?dry_run=true', {
      body: { id: 'draft', title: 'Draft' },
      headers: as('alice', 'acme'),
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ tenant_id: 'acme', permission: 'notes:note:write' });
    expect(res.body.would.body).to.include({ id: 'draft', title: 'Draft' });
    expect(await db()('notes').where({ id: 'draft' }).first()).to.equal(undefined);
  });

  it('runs normally with dry_run=false', async () => {
    const res = await k.request('POST', '/components?dry_run=false', {
      body: { type: 'passthrough', name: 'Real' },
      headers: as('alice', 'acme'),
    });
    expect(res.status).to.equal(201);
    expect(await db()('components').where({ id: 'real' }).first()).to.not.equal(undefined);
  });
});
