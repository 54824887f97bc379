import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

describe('variables: a tenant sets, reads and deletes its own named values', function () {
  this.timeout(120_000);
  let tk: TestKernel;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'variables'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it('creates and changes with PUT, lists by name, keeps tenants apart, audits each change and deletes', async () => {
    const first = await tk.request('PUT', '/variables/ROUTING_KEY', {
      body: { value: 'orders.v1', description: 'where orders go' },
    });
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ name: 'ROUTING_KEY', value: 'orders.v1', description: 'where orders go' });
    const changed = await tk.request('PUT', '/variables/ROUTING_KEY', { body: { value: 'orders.v2' } });
    expect(changed.body).to.include({ value: 'orders.v2', description: '', created_at: first.body.created_at });
    expect((await tk.request('PUT', '/variables/BROKER', { body: { value: 'amqp://mq' } })).status).to.equal(200);
    const other = await tk.request('PUT', '/variables/ROUTING_KEY', { body: { tenant_id: 'other', value: 'x' } });
    expect(other.status).to.equal(200);

    const list = await tk.request('GET', '/variables');
    expect(list.body.items.map((v: any) => [v.name, v.value])).to.deep.equal([
      ['BROKER', 'amqp://mq'],
      ['ROUTING_KEY', 'orders.v2'],
    ]);
    expect((await tk.request('GET', '/variables/ROUTING_KEY?tenant_id=other')).body.value).to.equal('x');
    const bad = await tk.request('PUT', '/variables/not-a-name', { body: { value: 'x' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details[0].pointer).to.equal('/name');

    const audited = await tk.kernel.database
      .knex('audit_records')
      .where({ tenant_id: 'default', operation: 'putVariable', resource_id: 'ROUTING_KEY' });
    expect(audited).to.have.length(2);
    expect((await tk.request('DELETE', '/variables/BROKER')).status).to.equal(204);
    expect((await tk.request('GET', '/variables/BROKER')).status).to.equal(404);
    expect((await tk.request('DELETE', '/variables/BROKER')).status).to.equal(404);
  });
});
