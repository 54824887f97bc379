import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('components', () => {
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components'], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  async function stored(id: string, tenant = 'default'): Promise<Record<string, unknown> | undefined> {
    return tk.kernel.database.knex('components').where({ tenant_id: tenant, id }).first();
  }

  describe('POST /components', () => {
    it('derives the id from the name and stores the component', async () => {
      const res = await tk.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Billing Gateway (EU)', tags: ['eu', 'billing'], config: { replicas: 2 } },
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('location')).to.equal('/components/billing-gateway-eu');
      expect(res.body).to.include({
        id: 'billing-gateway-eu',
        tenant_id: 'default',
        name: 'Billing Gateway (EU)',
        state: 'running', // a processor is usable at once; stopping it holds the workflows that use it
        revision: 1,
      });
      expect(res.body.tags).to.deep.equal(['eu', 'billing']);
      expect(res.body.created_at).to.match(RFC3339_UTC);
      const row = await stored('billing-gateway-eu');
      expect(row?.name).to.equal('Billing Gateway (EU)');
      expect(row?.config).to.deep.equal({ replicas: 2 });
    });

    it('takes the id the client gives', async () => {
      const res = await tk.request('POST', '/components', {
        body: { type: 'passthrough', id: 'custom-id', name: 'Whatever' },
      });
      expect(res.status).to.equal(201);
      expect(res.body.id).to.equal('custom-id');
    });

    it('answers a taken id with 409 duplicate_identifier and keeps the original', async () => {
      await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Taken' } });
      const res = await tk.request('POST', '/components', {
        body: { type: 'passthrough', name: 'taken', description: 'second' },
      });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.include({ code: 'duplicate_identifier', status: 409 });
      expect((await stored('taken'))?.description).to.equal('');
    });

    it('refuses a name with nothing to derive an id from', async () => {
      const res = await tk.request('POST', '/components', { body: { type: 'passthrough', name: '***' } });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
    });

    it('keeps tenants apart: the same id may exist in two tenants', async () => {
      const a = await tk.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Shared Name', tenant_id: 'tenant-a' },
      });
      const b = await tk.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Shared Name', tenant_id: 'tenant-b' },
      });
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect((await stored('shared-name', 'tenant-a'))?.tenant_id).to.equal('tenant-a');
    });
  });

  describe('GET /components/{id}', () => {
    it('reads one component and answers 404 for a missing one', async () => {
      expect((await tk.request('GET', '/components/custom-id')).body.name).to.equal('Whatever');
      const missing = await tk.request('GET', '/components/nope');
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('not_found');
    });

    it('answers 400 for an id that cannot exist', async () => {
      const res = await tk.request('GET', '/components/UPPER_case');
      expect(res.status).to.equal(400);
      expect(res.body.error.details[0]).to.include({ in: 'params', pointer: '/id' });
    });
  });

  describe('PATCH and PUT /components/{id}', () => {
    it('patches some fields, bumps the revision and the update time', async () => {
      const before = (await tk.request('GET', '/components/custom-id')).body;
      const res = await tk.request('PATCH', '/components/custom-id', { body: { description: 'patched', tags: ['x'] } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ name: 'Whatever', description: 'patched', revision: before.revision + 1 });
      expect(res.body.tags).to.deep.equal(['x']);
      expect(res.body.updated_at >= before.updated_at).to.equal(true);
    });

    it('replaces the whole component with PUT', async () => {
      const res = await tk.request('PUT', '/components/custom-id', { body: { name: 'Replaced' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ name: 'Replaced', description: '' });
      expect(res.body.tags).to.deep.equal([]);
    });

    it('refuses an empty patch and unknown fields', async () => {
      expect((await tk.request('PATCH', '/components/custom-id', { body: {} })).status).to.equal(400);
      expect((await tk.request('PATCH', '/components/custom-id', { body: { state: 'running' } })).status).to.equal(400);
    });
  });

  describe('DELETE /components/{id}', () => {
    it('deletes the component, then answers 404', async () => {
      await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Doomed' } });
      const res = await tk.request('DELETE', '/components/doomed');
      expect(res.status).to.equal(204);
      expect(await stored('doomed')).to.equal(undefined);
      expect((await tk.request('DELETE', '/components/doomed')).status).to.equal(404);
    });
  });

  describe('GET /components', () => {
    it('filters by state and tag', async () => {
      await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Tagged One', tags: ['blue'] } });
      await tk.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Tagged Two', tags: ['blue', 'green'] },
      });
      const blue = await tk.request('GET', '/components?tag=blue');
      expect(blue.body.items.map((c: { id: string }) => c.id)).to.deep.equal(['tagged-one', 'tagged-two']);
      await tk.request('POST', '/components/tagged-two/stop', { body: {} });
      const green = await tk.request('GET', '/components?tag=green&state=stopped');
      expect(green.body.items.map((c: { id: string }) => c.id)).to.deep.equal(['tagged-two']);
      expect((await tk.request('GET', '/components?tag=green&state=running')).body.items).to.deep.equal([]);
      expect((await tk.request('GET', '/components?state=melted')).status).to.equal(400);
    });
  });

  describe('supervisor actions', () => {
    it('moves a component between states and reports the previous one', async () => {
      await tk.request('POST', '/components', { body: { type: 'passthrough', name: 'Worker' } });
      const stopped = await tk.request('POST', '/components/worker/stop', { body: { reason: 'maintenance' } });
      expect(stopped.status).to.equal(200);
      expect(stopped.body.previous_state).to.equal('running');
      expect((await stored('worker'))?.state).to.equal('stopped');
      const started = await tk.request('POST', '/components/worker/start', { body: {} });
      expect(started.status).to.equal(200);
      expect(started.body).to.deep.include({ action: 'start', previous_state: 'stopped' });
      expect(started.body.component.state).to.equal('running');
    });
  });
});
