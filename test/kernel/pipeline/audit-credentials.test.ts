import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin, mintToken } from '../../support/identity.js';
import { FIXTURE, auditRows } from './helpers.js';

describe('audit records with real credentials (identity plugin)', () => {
  let k: TestKernel;
  let admin: string;
  before(async () => {
    k = await startKernel({ plugins: ['system', 'identity', 'audit', 'logs', 'components', FIXTURE] });
    admin = await loginAdmin(k);
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;

  it('attributes a write to the session and its subject', async () => {
    const res = await k.request('POST', '/components', {
      token: admin,
      body: { type: 'passthrough', name: 'By session' },
    });
    expect(res.status).to.equal(201);
    const [row] = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
    expect(row).to.include({
      tenant_id: 'default',
      outcome: 'success',
      credential_kind: 'session',
      actor_type: 'human',
    });
    expect(row!.subject_id).to.be.a('string');
    expect(row!.credential_id).to.be.a('string');
  });

  it('records a viewer API token refused with 403, naming the token, and changes nothing', async () => {
    const viewer = await mintToken(k, admin, ['viewer']);
    const res = await k.request('POST', '/notes', {
      headers: { 'x-api-key': viewer },
      body: { id: 'nope', title: 'No' },
    });
    expect(res.status).to.equal(403);
    const [row] = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
    expect(row).to.include({
      outcome: 'refused',
      status: 403,
      error_code: 'forbidden',
      credential_kind: 'api_token',
      operation: 'createNote',
    });
    expect(JSON.stringify(row)).to.not.contain(viewer);
    expect(await db()('notes').where({ id: 'nope' }).first()).to.equal(undefined);
  });

  it('records an unknown credential as refused with 401 in the account trail, naming the tenant it asked for', async () => {
    const res = await k.request('POST', '/components', {
      token: 'sk_not_a_real_token',
      body: { type: 'passthrough', name: 'X' },
      headers: { 'x-service-tenant': 'default' },
    });
    expect(res.status).to.equal(401);
    const [row] = await auditRows(db(), { request_id: res.headers.get('x-request-id') });
    expect(row).to.include({ tenant_id: '_account', outcome: 'refused', status: 401, subject_id: null });
    expect(row.detail).to.include({ named_tenant: 'default' });
    expect(JSON.stringify(row)).to.not.contain('sk_not_a_real_token');
  });

  it('replays an idempotent create for the same token and keeps keys of two tokens apart', async () => {
    const builderA = await mintToken(k, admin, ['builder'], { name: 'a' });
    const builderB = await mintToken(k, admin, ['builder'], { name: 'b' });
    const a1 = await k.request('POST', '/notes', {
      headers: { 'x-api-key': builderA, 'idempotency-key': 'same' },
      body: { id: 'from-a', title: 'A' },
    });
    const a2 = await k.request('POST', '/notes', {
      headers: { 'x-api-key': builderA, 'idempotency-key': 'same' },
      body: { id: 'from-a', title: 'A' },
    });
    expect(a1.status).to.equal(201);
    expect(a2.text).to.equal(a1.text);
    expect(a2.headers.get('idempotent-replayed')).to.equal('true');
    const b1 = await k.request('POST', '/notes', {
      headers: { 'x-api-key': builderB, 'idempotency-key': 'same' },
      body: { id: 'from-b', title: 'B' },
    });
    expect(b1.status).to.equal(201);
    expect(b1.headers.get('idempotent-replayed')).to.equal(null);
  });
});
