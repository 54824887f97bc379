import { expect } from 'chai';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, headerAuthPlugin } from '../pipeline/helpers.js';

const ADMIN = [
  'runtime:component:read',
  'runtime:component:write',
  'runtime:audit:read',
  'runtime:log:read',
  'notes:note:read',
  'notes:note:write',
  'runtime:account:admin',
];

/** Follows the cursors of a list to its end; `between` writes concurrently with every page read after the first. */
async function pageThrough(
  k: TestKernel,
  path: string,
  headers: Record<string, string>,
  via: 'header' | 'body',
  between: () => Promise<unknown> = async () => undefined,
): Promise<{ items: Array<Record<string, unknown>>; pages: number }> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | null | undefined;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    // Writes run at the same time as the page is read, from the second page on.
    const [res] = (await Promise.all([
      k.request('GET', cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, { headers }),
      pages > 0 ? between() : undefined,
    ])) as [HttpResult, unknown];
    expect(res.status, res.text).to.equal(200);
    items.push(...(res.body.items as Array<Record<string, unknown>>));
    cursor = via === 'header' ? res.headers.get('x-next-cursor') : (res.body.next_cursor as string | undefined);
    if (via === 'header') expect(res.body).to.not.have.property('next_cursor');
    else expect(res.headers.get('x-next-cursor')).to.equal(null);
    pages += 1;
  } while (cursor);
  return { items, pages };
}

function expectEachOnce(seen: readonly unknown[], existing: readonly unknown[]): void {
  expect(new Set(seen).size, 'no duplicates').to.equal(seen.length);
  const set = new Set(seen);
  for (const id of existing) expect(set.has(id), `row ${String(id)} seen`).to.equal(true);
}

describe('cursor paging', () => {
  let k: TestKernel;
  const admin = as('root', 'acme', ADMIN);
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
    const now = new Date();
    const db = k.kernel.database.knex;
    await db('components').insert(
      Array.from({ length: 620 }, (_, i) => ({
        tenant_id: 'acme',
        id: `c-${String(i).padStart(4, '0')}`,
        name: `C ${i}`,
        state: i % 3 === 0 ? 'running' : 'stopped',
        created_at: now,
        updated_at: now,
      })),
    );
    await db('runtime_logs').insert(
      Array.from({ length: 1100 }, (_, i) => ({
        tenant_id: 'acme',
        at: now,
        level: i % 10 === 0 ? 'error' : 'info',
        source: i % 2 ? 'engine' : 'router',
        message: `line ${i}`,
        fields: '{}',
      })),
    );
    const sink = k.kernel.services.audit!;
    for (let i = 0; i < 1050; i++) {
      await sink.write(db, {
        tenantId: 'acme',
        operation: i % 2 ? 'createComponent' : 'deleteComponent',
        method: 'POST',
        path: '/components',
        resourceId: `r${i}`,
        status: 201,
        outcome: 'success',
        errorCode: null,
        requestId: `seed-${i}`,
        idempotencyKey: null,
        principal: null,
        attribution: { actorType: 'service', actorId: i % 5 === 0 ? 'op-5' : 'op' },
        fields: {},
        detail: {},
        severity: 'info',
        transport: 'http',
        at: new Date(),
      });
    }
  });
  after(() => k.close());

  describe('GET /components (header cursor, ceiling 500)', () => {
    it('sees every row that existed before paging exactly once while rows are inserted concurrently', async () => {
      const existing = (await k.kernel.database
        .knex('components')
        .where({ tenant_id: 'acme' })
        .pluck('id')) as string[];
      let n = 0;
      const insert = () =>
        Promise.all(
          [0, 1, 2].map(() =>
            k.request('POST', '/components', {
              body: { type: 'passthrough', id: `new-${n++}`, name: 'New' },
              headers: admin,
            }),
          ),
        );
      const { items, pages } = await pageThrough(k, '/components?limit=50', admin, 'header', insert);
      expectEachOnce(
        items.map((c) => c.id),
        existing,
      );
      expect(pages).to.be.greaterThan(12);
    });

    it('clamps a limit above the ceiling and applies the default', async () => {
      const big = await k.request('GET', '/components?limit=100000', { headers: admin });
      expect(big.body.items).to.have.length(500);
      expect(big.headers.get('x-next-cursor')).to.be.a('string');
      const plain = await k.request('GET', '/components', { headers: admin });
      expect(plain.body.items).to.have.length(100);
    });

    it('keeps the filters through the pages and returns no cursor at the end', async () => {
      const { items } = await pageThrough(k, '/components?state=running&limit=40', admin, 'header');
      const expected = (await k.kernel.database
        .knex('components')
        .where({ tenant_id: 'acme', state: 'running' })
        .pluck('id')) as string[];
      expect(items.map((c) => c.id).sort()).to.deep.equal(expected.sort());
    });

    it('refuses tampered, malformed and foreign cursors with 400 bad_request', async () => {
      const first = await k.request('GET', '/components?limit=5', { headers: admin });
      const cursor = first.headers.get('x-next-cursor') as string;
      const [payload, mac] = cursor.split('.') as [string, string];
      const edited = `${Buffer.from(JSON.stringify(['c-0000'])).toString('base64url')}.${mac}`;
      const attempts = [
        `/components?cursor=${edited}`,
        `/components?cursor=${payload}.${'A'.repeat(22)}`,
        '/components?cursor=not-a-cursor',
        `/components?state=running&cursor=${cursor}`,
        `/components?tenant_id=other&cursor=${cursor}`,
        `/logs?cursor=${cursor}`,
      ];
      for (const path of attempts) {
        const res = await k.request('GET', path, { headers: admin });
        expect(res.status, path).to.equal(400);
        expect(res.body.error.code, path).to.equal('bad_request');
      }
      const sameList = await k.request('GET', `/components?limit=5&cursor=${cursor}`, { headers: admin });
      expect(sameList.status).to.equal(200);
    });

    it('refuses a cursor presented by another tenant', async () => {
      const first = await k.request('GET', '/components?limit=5', { headers: admin });
      const cursor = first.headers.get('x-next-cursor') as string;
      const res = await k.request('GET', `/components?cursor=${cursor}`, { headers: as('eve', 'evil') });
      expect(res.status).to.equal(400);
    });
  });

  describe('GET /audit (header cursor, default 100, ceiling 1000)', () => {
    it('sees every record that existed before paging exactly once while calls are recorded concurrently', async () => {
      const existing = (await k.kernel.database
        .knex('audit_records')
        .where({ tenant_id: 'acme' })
        .pluck('id')) as string[];
      const write = () =>
        Promise.all(
          [0, 1].map(() =>
            k.request('POST', '/notes', {
              body: { id: `p${Math.random().toString(36).slice(2, 10)}`, title: 'x' },
              headers: admin,
            }),
          ),
        );
      const { items } = await pageThrough(k, '/audit?limit=97', admin, 'header', write);
      expectEachOnce(
        items.map((r) => r.id),
        existing,
      );
      // Newest first: by the writing transaction, then id.
      const order = items.map((r) => [r.txid as number, r.id as string] as const);
      const sorted = [...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0));
      expect(order).to.deep.equal(sorted);
    });

    it('defaults to 100 and clamps to 1000', async () => {
      expect((await k.request('GET', '/audit', { headers: admin })).body.items).to.have.length(100);
      expect((await k.request('GET', '/audit?limit=5000', { headers: admin })).body.items).to.have.length(1000);
    });

    it('filters by actor, operation, status and resource, and binds the cursor to them', async () => {
      const { items } = await pageThrough(k, '/audit?actor=op-5&operation=createComponent&limit=20', admin, 'header');
      expect(items.length).to.be.greaterThan(0);
      for (const r of items) expect(r).to.deep.include({ operation: 'createComponent' });
      for (const r of items) expect((r.actor as Record<string, unknown>).actor_id).to.equal('op-5');
      const byResource = await k.request('GET', '/audit?resource=r7', { headers: admin });
      expect(byResource.body.items.map((r: { resource_id: string }) => r.resource_id)).to.deep.equal(['r7']);
      const byStatus = await k.request('GET', '/audit?status=201&limit=3', { headers: admin });
      expect(byStatus.body.items.every((r: { status: number }) => r.status === 201)).to.equal(true);
      const cursor = byStatus.headers.get('x-next-cursor') as string;
      expect(
        (await k.request('GET', `/audit?status=success&limit=3&cursor=${cursor}`, { headers: admin })).status,
      ).to.equal(400);
    });

    it('filters by time with since and until', async () => {
      const future = new Date(Date.now() + 3_600_000).toISOString();
      expect((await k.request('GET', `/audit?since=${future}`, { headers: admin })).body.items).to.have.length(0);
      expect((await k.request('GET', `/audit?until=${future}&limit=1`, { headers: admin })).body.items).to.have.length(
        1,
      );
    });
  });

  describe('GET /logs (header cursor, default 200, ceiling 1000)', () => {
    it('sees every record that existed before paging exactly once while records are written concurrently', async () => {
      const existing = (
        (await k.kernel.database.knex('runtime_logs').where({ tenant_id: 'acme' }).pluck('seq')) as Array<
          string | number
        >
      ).map(Number);
      const logs = k.kernel.services.logs!;
      const write = async () => {
        for (let i = 0; i < 5; i++)
          await logs.write({ tenantId: 'acme', level: 'info', source: 'test', message: 'concurrent' });
        await logs.flush?.();
      };
      const { items } = await pageThrough(k, '/logs?limit=150', admin, 'header', write);
      expectEachOnce(
        items.map((r) => r.seq),
        existing,
      );
    });

    it('defaults to 200, clamps to 1000, and filters by minimum level and source', async () => {
      expect((await k.request('GET', '/logs', { headers: admin })).body.items).to.have.length(200);
      expect((await k.request('GET', '/logs?limit=1001', { headers: admin })).body.items).to.have.length(1000);
      const { items } = await pageThrough(k, '/logs?level=error&source=router&limit=30', admin, 'header');
      expect(items).to.have.length(110);
      for (const r of items) expect(r).to.include({ level: 'error', source: 'router' });
    });
  });

  describe('GET /notes of the third-party plugin (body cursor on a two-field key)', () => {
    it('returns next_cursor in the body, orders by (title, id), and sees every note once under concurrent inserts', async () => {
      const db = k.kernel.database.knex;
      await db('notes').insert(
        Array.from({ length: 230 }, (_, i) => ({
          tenant_id: 'acme',
          id: `n-${i}`,
          title: `T${i % 7}`,
          pinned: i < 5,
          created_at: new Date(),
        })),
      );
      const existing = (await db('notes').where({ tenant_id: 'acme' }).pluck('id')) as string[];
      let n = 0;
      const insert = () => k.request('POST', '/notes', { body: { id: `late-${n++}`, title: 'T3' }, headers: admin });
      const { items } = await pageThrough(k, '/notes?limit=19', admin, 'body', insert);
      expectEachOnce(
        items.map((x) => x.id),
        existing,
      );
      const keys = items.map((x) => [x.title, x.id] as [string, string]);
      for (let i = 1; i < keys.length; i++) {
        const [a, b] = [keys[i - 1]!, keys[i]!];
        expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `${a.join()} before ${b.join()}`).to.equal(true);
      }
    });

    it('clamps to its ceiling of 200, ends without next_cursor when the last page is exactly full, and binds cursors to ?pinned', async () => {
      const res = await k.request('GET', '/notes?limit=999', { headers: admin });
      expect(res.body.items).to.have.length(200);
      expect(res.body.next_cursor).to.be.a('string');
      const pinned = await k.request('GET', '/notes?pinned=true&limit=5', { headers: admin });
      expect(pinned.body.items).to.have.length(5);
      expect(pinned.body).to.not.have.property('next_cursor');
      const twoOfFive = await k.request('GET', '/notes?pinned=true&limit=2', { headers: admin });
      const cursor = twoOfFive.body.next_cursor as string;
      expect(
        (await k.request('GET', `/notes?pinned=true&limit=2&cursor=${cursor}`, { headers: admin })).body.items,
      ).to.have.length(2);
      expect((await k.request('GET', `/notes?cursor=${cursor}`, { headers: admin })).status).to.equal(400);
      expect((await k.request('GET', '/notes?cursor=x.y', { headers: admin })).status).to.equal(400);
    });
  });
});
