import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, auditRows, headerAuthPlugin } from './helpers.js';

describe('audit step: one record per mutating call', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;

  it('records a created component with its actor, attribution and only the declared fields', async () => {
    const res = await k.request('POST', '/components', {
      body: {
        type: 'passthrough',
        name: 'Alpha',
        description: 'not recorded',
        config: { password: 'hunter2' },
        tags: ['a'],
      },
      headers: {
        ...as('alice', 'acme'),
        'x-service-agent-id': 'agent-7',
        'x-service-actor-id': 'op-1',
        'x-service-actor-email': 'op@example.test',
        'idempotency-key': 'create-alpha',
      },
    });
    expect(res.status).to.equal(201);
    const rows = await auditRows(db(), { tenant_id: 'acme' });
    expect(rows).to.have.length(1);
    const row = rows[0]!;
    expect(row).to.include({
      operation: 'createComponent',
      method: 'POST',
      path: '/components',
      resource_id: 'alpha',
      status: 201,
      outcome: 'success',
      error_code: null,
      request_id: res.headers.get('x-request-id'),
      idempotency_key: 'create-alpha',
      subject_id: 'alice',
      credential_kind: 'api_token',
      credential_id: 'tok-alice',
      actor_type: 'agent',
      agent_id: 'agent-7',
      actor_id: 'op-1',
      actor_email: 'op@example.test',
      transport: 'http',
    });
    expect(row.fields).to.deep.equal({ name: 'Alpha', type: 'passthrough', tags: ['a'] });
    expect(JSON.stringify(row)).to.not.contain('hunter2');
    expect(JSON.stringify(row)).to.not.contain('not recorded');
    expect(row.detail).to.deep.equal({ permission: 'runtime:component:write' });

    const listed = await k.request('GET', '/audit', { headers: as('alice', 'acme') });
    expect(listed.status).to.equal(200);
    expect(listed.body.items).to.have.length(1);
    expect(listed.body.items[0].time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(listed.body.items[0].actor).to.deep.equal({
      subject_id: 'alice',
      credential_kind: 'api_token',
      credential_id: 'tok-alice',
      actor_type: 'agent',
      agent_id: 'agent-7',
      actor_id: 'op-1',
      actor_email: 'op@example.test',
    });
  });

  it('records refused calls (400, 401, 403, 404, 409, 422) with status, outcome and error code, and changes nothing', async () => {
    const before = await db()('components').count<{ count: string }[]>('* as count');
    const calls: Array<{
      res: Promise<import('../../support/kernel.js').HttpResult>;
      status: number;
      code: string;
      tenant: string;
      subject: string | null;
    }> = [
      {
        res: k.request('POST', '/components', {
          body: { type: 'passthrough', name: 'x' },
          headers: { 'x-service-tenant': 'acme' },
        }),
        status: 401,
        code: 'authentication_required',
        tenant: '_account',
        subject: null,
      },
      {
        res: k.request('POST', '/components', { body: { type: 'passthrough', name: 'x' } }),
        status: 401,
        code: 'authentication_required',
        tenant: '_account',
        subject: null,
      },
      {
        res: k.request('POST', '/components', {
          body: { type: 'passthrough', name: 'Beta' },
          headers: as('bob', 'acme', ['runtime:component:read']),
        }),
        status: 403,
        code: 'forbidden',
        tenant: 'acme',
        subject: 'bob',
      },
      {
        res: k.request('POST', '/components', {
          body: { type: 'passthrough', name: 'Beta', tenant_id: 'other' },
          headers: as('bob', 'acme'),
        }),
        status: 404,
        code: 'not_found',
        tenant: 'acme',
        subject: 'bob',
      },
      {
        res: k.request('POST', '/components', { body: { type: 'passthrough', name: '' }, headers: as('bob', 'acme') }),
        status: 400,
        code: 'validation_error',
        tenant: 'acme',
        subject: 'bob',
      },
      {
        res: k.request('POST', '/components', {
          body: { type: 'passthrough', name: 'Alpha' },
          headers: as('bob', 'acme'),
        }),
        status: 409,
        code: 'duplicate_identifier',
        tenant: 'acme',
        subject: 'bob',
      },
      {
        res: k.request('POST', '/components', {
          body: { type: 'passthrough', name: 'Gamma' },
          headers: { ...as('alice', 'acme'), 'idempotency-key': 'create-alpha' },
        }),
        status: 422,
        code: 'idempotency_key_reused',
        tenant: 'acme',
        subject: 'alice',
      },
    ];
    for (const call of calls) {
      const res = await call.res;
      expect(res.status, call.code).to.equal(call.status);
      expect(res.body.error.code).to.equal(call.code);
      const [row, ...more] = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
      expect(more, call.code).to.have.length(0);
      expect(row, call.code).to.include({
        tenant_id: call.tenant,
        status: call.status,
        outcome: 'refused',
        error_code: call.code,
        subject_id: call.subject,
        operation: 'createComponent',
      });
    }
    expect(await db()('components').count<{ count: string }[]>('* as count')).to.deep.equal(before);
  });

  it('records an error reply returned by a third-party handler as refused', async () => {
    const res = await k.request('PATCH', '/notes/missing', { body: { title: 'x' }, headers: as('alice', 'acme') });
    expect(res.status).to.equal(404);
    const [row] = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
    expect(row).to.include({
      operation: 'patchNote',
      status: 404,
      outcome: 'refused',
      error_code: 'not_found',
      resource_id: 'missing',
    });
  });

  it('records no read', async () => {
    const count = (await auditRows(db())).length;
    expect((await k.request('GET', '/components', { headers: as('alice', 'acme') })).status).to.equal(200);
    expect((await k.request('GET', '/notes', { headers: as('alice', 'acme') })).status).to.equal(200);
    expect(await auditRows(db())).to.have.length(count);
  });

  it("writes the success record in the call's transaction: when the record cannot be written, the effect is rolled back", async () => {
    // A constraint the tenant's records cannot meet makes the audit write fail inside the call's transaction.
    await k.request('POST', '/components', {
      body: { type: 'passthrough', name: 'Seed' },
      headers: as('carol', 'solo'),
    });
    await db().raw("ALTER TABLE audit_records ADD CONSTRAINT test_no_solo CHECK (tenant_id <> 'solo') NOT VALID");
    let res;
    try {
      res = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Doomed' },
        headers: as('carol', 'solo'),
      });
    } finally {
      await db().raw('ALTER TABLE audit_records DROP CONSTRAINT test_no_solo');
    }
    expect(res.status).to.equal(500);
    expect(await db()('components').where({ tenant_id: 'solo', id: 'doomed' }).first()).to.equal(undefined);
    expect(await auditRows(db(), { tenant_id: 'solo', resource_id: 'doomed' })).to.have.length(0);
  });

  it('records the X-Service-Actor-Type of a service, and a human by default', async () => {
    const service = await k.request('POST', '/notes', {
      body: { id: 'svc', title: 'By a service' },
      headers: { ...as('ci', 'acme'), 'x-service-actor-type': 'service' },
    });
    const human = await k.request('POST', '/notes', {
      body: { id: 'hum', title: 'By a human' },
      headers: as('alice', 'acme'),
    });
    const [s] = await auditRows(db(), { request_id: service.headers.get('x-request-id') });
    const [h] = await auditRows(db(), { request_id: human.headers.get('x-request-id') });
    expect(s).to.include({ actor_type: 'service', agent_id: null, operation: 'createNote', resource_id: 'svc' });
    expect(s!.fields).to.deep.equal({ id: 'svc', title: 'By a service' });
    expect(h).to.include({ actor_type: 'human', actor_email: 'alice@example.test' });
  });
});
