import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { deploy, simpleUserTaskXml, startInstance } from './fixtures.js';

describe('bpmn: GET /bpmn/instances pages with a body cursor', function () {
  this.timeout(180_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
    await deploy(tk, simpleUserTaskXml('paged'));
  });
  after(() => tk?.close());

  it('sees every instance that existed before paging exactly once while others start', async () => {
    const existing: string[] = [];
    for (let i = 0; i < 25; i++)
      existing.push((await startInstance(tk, { process_id: 'paged', business_key: `b${i % 3}` })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    const starting: Array<Promise<unknown>> = [];
    do {
      const res = await tk.request(
        'GET',
        `/bpmn/instances?process_id=paged&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('x-next-cursor')).to.equal(null);
      expect(res.body.items.length).to.be.at.most(4);
      seen.push(...res.body.items.map((i: any) => i.id));
      cursor = res.body.next_cursor;
      // Concurrent starts while paging: new instances may or may not show, old ones must show once.
      starting.push(startInstance(tk, { process_id: 'paged' }), startInstance(tk, { process_id: 'paged' }));
      pages += 1;
    } while (cursor && pages < 100);
    await Promise.all(starting);
    expect(new Set(seen).size).to.equal(seen.length);
    for (const id of existing) expect(seen.filter((s) => s === id)).to.have.length(1);
    expect(pages).to.be.greaterThan(6);
  });

  it('filters by state and business key, and binds the cursor to the filters', async () => {
    const b1 = await tk.request('GET', '/bpmn/instances?process_id=paged&business_key=b1&limit=2');
    expect(b1.body.items.every((i: any) => i.business_key === 'b1')).to.equal(true);
    expect(b1.body.next_cursor).to.be.a('string');
    const other = await tk.request(
      'GET',
      `/bpmn/instances?process_id=paged&business_key=b2&cursor=${encodeURIComponent(b1.body.next_cursor)}`,
    );
    expect(other.status).to.equal(400);
    const active = await tk.request('GET', '/bpmn/instances?state=completed&process_id=paged');
    expect(active.body.items).to.deep.equal([]);
  });

  it('answers 400 for a tampered cursor', async () => {
    const first = await tk.request('GET', '/bpmn/instances?limit=1');
    const cursor = first.body.next_cursor as string;
    // One character changed (tested on the one replaced: testing another left the cursor unchanged 1 time in 64).
    const at = cursor.length - 2;
    const flipped = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    expect(flipped).to.not.equal(cursor);
    const res = await tk.request('GET', `/bpmn/instances?limit=1&cursor=${encodeURIComponent(flipped)}`);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('bad_request');
  });

  it('defaults to 100 and clamps limit to 500', async () => {
    const one = await startInstance(tk, { process_id: 'paged' });
    const knex = tk.kernel.database.knex;
    const template = await knex('bpmn_instances').where({ id: one.id }).first();
    const rows = Array.from({ length: 520 }, (_, i) => ({
      ...template,
      waiting: JSON.stringify(template.waiting),
      variables: JSON.stringify(template.variables),
      id: `bpi_zz${String(i).padStart(6, '0')}bulk`,
      process_id: 'bulk',
      state: 'completed',
    }));
    for (let i = 0; i < rows.length; i += 100) await knex('bpmn_instances').insert(rows.slice(i, i + 100));
    const byDefault = await tk.request('GET', '/bpmn/instances?process_id=bulk');
    expect(byDefault.body.items).to.have.length(100);
    const clamped = await tk.request('GET', '/bpmn/instances?process_id=bulk&limit=1000');
    expect(clamped.status).to.equal(200);
    expect(clamped.body.items).to.have.length(500);
    expect(clamped.body.next_cursor).to.be.a('string');
    const rest = await tk.request(
      'GET',
      `/bpmn/instances?process_id=bulk&limit=1000&cursor=${encodeURIComponent(clamped.body.next_cursor)}`,
    );
    expect(rest.body.items).to.have.length(20);
    expect(rest.body.next_cursor).to.equal(undefined);
  });
});
