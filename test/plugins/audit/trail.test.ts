import { expect } from 'chai';
import { onPostgres, startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, auditRows, expectRefused, headerAuthPlugin } from '../../kernel/pipeline/helpers.js';
import { verifyTrail } from './records.js';
import { untilSealed } from '../../support/sealed.js';

/** A small seeded generator, so a failing sequence can be replayed from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function expectedOutcome(status: number, replayed: boolean, dryRun: boolean): string {
  if (replayed) return 'replayed';
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  return dryRun ? 'dry_run' : 'success';
}

describe('audit trail', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;

  it('holds exactly one record per call, with the right outcome, for a random sequence of mutating calls across plugins', async () => {
    const seed = Number(process.env.AUDIT_PROPERTY_SEED ?? Date.now() % 100000);
    const random = prng(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const ids = ['a', 'b', 'c', 'd'];
    const tenants = ['t1', 't2'];
    const keys = ['k1', 'k2', undefined, undefined];
    const makers: Array<() => { method: string; path: string; body?: unknown; headers: Record<string, string> }> = [
      () => ({
        method: 'POST',
        path: '/components',
        body: { type: 'passthrough', id: pick(ids), name: pick(['One', 'Two']) },
        headers: {},
      }),
      () => ({ method: 'PATCH', path: `/components/${pick(ids)}`, body: { name: pick(['P', 'Q']) }, headers: {} }),
      () => ({ method: 'DELETE', path: `/components/${pick(ids)}`, headers: {} }),
      () => ({
        method: 'POST',
        path: `/components/${pick(ids)}/${pick(['start', 'stop', 'restart'])}`,
        body: { reason: pick(['x', 'y']) },
        headers: {},
      }),
      () => ({ method: 'POST', path: '/notes', body: { id: pick(ids), title: pick(['T1', 'T2']) }, headers: {} }),
      () => ({ method: 'PATCH', path: `/notes/${pick(ids)}`, body: { title: pick(['T3', '']) }, headers: {} }),
      () => ({ method: 'POST', path: `/notes/${pick(ids)}/pin`, body: {}, headers: {} }),
      () => ({ method: 'DELETE', path: `/notes/${pick(ids)}`, headers: {} }),
    ];
    const results: Array<{ res: HttpResult; dryRun: boolean }> = [];
    let i = 0;
    while (i < 80) {
      // Calls go in groups of one to four sent at once, so appends to one chain interleave.
      const group = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        i += 1;
        const call = pick(makers)();
        const tenant = pick(tenants);
        const key = pick(keys);
        const dryRun = random() < 0.1;
        const who =
          random() < 0.1
            ? as('reader', tenant, ['runtime:component:read', 'notes:note:read'])
            : random() < 0.05
              ? {}
              : as('writer', tenant);
        const headers: Record<string, string> = {
          ...who,
          ...call.headers,
          ...(key ? { 'idempotency-key': `${key}-${i % 3}` } : {}),
        };
        const path = dryRun ? `${call.path}?dry_run=true` : call.path;
        return k
          .request(call.method, path, { ...(call.body ? { body: call.body } : {}), headers })
          .then((res) => ({ res, dryRun }));
      });
      results.push(...(await Promise.all(group)));
    }
    const rows = await auditRows(db());
    expect(rows, `seed ${seed}`).to.have.length(results.length);
    for (const { res, dryRun } of results) {
      const mine = rows.filter((r) => r.request_id === res.headers.get('x-request-id'));
      expect(mine, `seed ${seed}`).to.have.length(1);
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      const status = dryRun && res.status === 200 && res.body?.dry_run ? res.body.would.status : res.status;
      expect(mine[0], `seed ${seed}`).to.include({ status, outcome: expectedOutcome(status, replayed, dryRun) });
    }
    for (const tenant of ['t1', 't2']) {
      const verify = await verifyTrail(k, tenant);
      expect(verify.body, `seed ${seed}`).to.include({ valid: true, first_broken: null });
    }
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused by a trigger', async () => {
    await k.request('POST', '/notes', { body: { id: 'ao', title: 'Append only' }, headers: as('alice', 'ao') });
    const before = await auditRows(db(), { tenant_id: 'ao' });
    expect(before).to.have.length(1);
    await expectRefused(
      [
        () => db()('audit_records').where({ tenant_id: 'ao' }).update({ status: 200 }),
        () => db()('audit_records').where({ tenant_id: 'ao' }).delete(),
        () => db().raw('TRUNCATE audit_records'),
      ],
      /append-only/,
    );
    expect(await auditRows(db(), { tenant_id: 'ao' })).to.deep.equal(before);
  });

  it('keeps the seals append-only too', async () => {
    await k.request('POST', '/notes', { body: { id: 'ao2', title: 'Sealed' }, headers: as('alice', 'ao2') });
    await untilSealed(() =>
      k.request('GET', '/audit/verify?tenant_id=ao2', { headers: as('auditor', 'ao2', ['runtime:audit:read']) }),
    );
    const before = await db()('audit_seals').where({ tenant_id: 'ao2' });
    expect(before).to.have.length(1);
    await expectRefused(
      [
        () =>
          db()('audit_seals')
            .where({ tenant_id: 'ao2' })
            .update({ hash: 'f'.repeat(64) }),
        () => db()('audit_seals').where({ tenant_id: 'ao2' }).delete(),
        () => db().raw('TRUNCATE audit_seals'),
      ],
      /append-only/,
    );
    expect(await db()('audit_seals').where({ tenant_id: 'ao2' })).to.deep.equal(before);
  });

  it('chains each record shortly after its commit, without anyone asking', async () => {
    const res = await k.request('POST', '/notes', {
      body: { id: 'soon', title: 'Sealed soon' },
      headers: as('alice', 'soon'),
    });
    expect(res.status).to.equal(201);
    let record: Record<string, unknown> | undefined;
    // Within 30 s: an open transaction elsewhere on the same PostgreSQL server holds sealing back (see support/sealed.ts).
    for (const deadline = Date.now() + 30_000; !record?.hash && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      record = (await k.request('GET', '/audit', { headers: as('auditor', 'soon', ['runtime:audit:read']) })).body
        .items[0];
    }
    expect(record).to.include({ seq: 1, prev_hash: '0'.repeat(64), resource_id: 'soon' });
    expect(record?.hash).to.match(/^[0-9a-f]{64}$/);
  });

  (onPostgres ? it : it.skip)(
    'chains a record held back by a transaction elsewhere on the server soon after that one ends, without waiting for the sweep',
    async () => {
      // An unrelated transaction with an id: the horizon of finished transactions stays behind it.
      const holder = await db().transaction();
      try {
        await holder.raw('SELECT txid_current()');
        expect(
          (
            await k.request('POST', '/notes', {
              body: { id: 'behind', title: 'Held back' },
              headers: as('alice', 'behind'),
            })
          ).status,
        ).to.equal(201);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const [held] = (await k.request('GET', '/audit', { headers: as('auditor', 'behind', ['runtime:audit:read']) }))
          .body.items;
        expect(held).to.include({ resource_id: 'behind', hash: null });
      } finally {
        await holder.commit();
      }
      let record: Record<string, unknown> | undefined;
      // The sweep runs once a minute here; the held-back tenant is retried within seconds.
      for (const deadline = Date.now() + 5000; !record?.hash && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        record = (await k.request('GET', '/audit', { headers: as('auditor', 'behind', ['runtime:audit:read']) })).body
          .items[0];
      }
      expect(record?.hash).to.match(/^[0-9a-f]{64}$/);
    },
  );
});

describe('GET /audit/verify', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS }, { plugins: [headerAuthPlugin] });
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;
  const verify = (tenant: string) => verifyTrail(k, tenant);

  /** Writes n records and has them chained (verification seals what has committed first). */
  async function seed(tenant: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++)
      await k.request('POST', '/notes', { body: { id: `n${i}`, title: `Note ${i}` }, headers: as('alice', tenant) });
    expect((await untilSealed(() => verify(tenant))).body).to.include({ valid: true, records: n, unsealed: 0 });
  }

  /** Changes the trail as a database superuser would: with triggers switched off for the transaction. */
  async function asSuperuser(sql: string, bindings: unknown[]): Promise<void> {
    await db().transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx.raw(sql, bindings as never);
    });
  }

  /** The record at chain position `seq` of the tenant bound to the statement's one binding. */
  const record = (seq: number) =>
    `(tenant_id, xact, id) = (SELECT tenant_id, xact, record_id FROM audit_seals WHERE tenant_id = ? AND seq = ${seq})`;

  it('reports an intact chain with its head', async () => {
    await seed('intact', 5);
    const res = await verify('intact');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ tenant_id: 'intact', valid: true, records: 5, unsealed: 0, first_broken: null });
    expect(res.body.head.seq).to.equal(5);
  });

  it('detects a record altered directly in the database and names the first broken link', async () => {
    await seed('altered', 6);
    await asSuperuser(`UPDATE audit_records SET fields = '{"id":"n2","title":"forged"}'::jsonb WHERE ${record(3)}`, [
      'altered',
    ]);
    const res = await verify('altered');
    expect(res.body.valid).to.equal(false);
    expect(res.body.first_broken).to.include({ seq: 3, problem: 'hash' });
  });

  it('detects a record whose hash was recomputed to hide an edit: the next link no longer matches', async () => {
    await seed('rehashed', 4);
    await asSuperuser(`UPDATE audit_records SET status = 204 WHERE ${record(2)}`, ['rehashed']);
    await asSuperuser("UPDATE audit_seals SET hash = repeat('a', 64) WHERE tenant_id = ? AND seq = 2", ['rehashed']);
    const res = await verify('rehashed');
    expect(res.body.valid).to.equal(false);
    expect(res.body.first_broken.seq).to.equal(2);
  });

  it('detects a deleted record and records deleted from the end of the chain', async () => {
    await seed('gap', 5);
    await asSuperuser(`DELETE FROM audit_records WHERE ${record(2)}`, ['gap']);
    const gap = await verify('gap');
    expect(gap.body.valid).to.equal(false);
    expect(gap.body.first_broken).to.include({ seq: 2, problem: 'sequence' });

    await seed('tail', 3);
    await asSuperuser(`DELETE FROM audit_records WHERE ${record(3)}`, ['tail']);
    const tail = await verify('tail');
    expect(tail.body.valid).to.equal(false);
    expect(tail.body.first_broken).to.include({ seq: 3, problem: 'head' });
  });

  it('detects a record whose seal was removed, and a record slipped in among sealed ones', async () => {
    await seed('unsealed', 4);
    await asSuperuser('DELETE FROM audit_seals WHERE tenant_id = ? AND seq = 2', ['unsealed']);
    const res = await verify('unsealed');
    expect(res.body.valid).to.equal(false);
    expect(res.body.first_broken).to.include({ seq: 2, problem: 'unsealed' });

    await seed('forged', 3);
    await asSuperuser(
      `INSERT INTO audit_records (tenant_id, xact, id, at, operation, method, path, status, outcome, request_id, actor_type, fields, detail, severity, transport)
       SELECT tenant_id, xact, gen_random_uuid(), at, operation, method, path, 200, 'success', 'forged', actor_type, '{}', '{}', 'info', 'http'
       FROM audit_records WHERE ${record(2)}`,
      ['forged'],
    );
    const forged = await verify('forged');
    expect(forged.body.valid).to.equal(false);
    expect(forged.body.first_broken.problem).to.be.oneOf(['unsealed']);
  });

  it("checks only the caller's tenant: another tenant is 404", async () => {
    const res = await k.request('GET', '/audit/verify?tenant_id=intact', {
      headers: as('mallory', 'elsewhere', ['runtime:audit:read']),
    });
    expect(res.status).to.equal(404);
  });
});
