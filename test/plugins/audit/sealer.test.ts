import { expect } from 'chai';
import type { Knex } from 'knex';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, headerAuthPlugin } from '../../kernel/pipeline/helpers.js';
import { readSettings } from '../../../plugins/audit/settings.js';

/** Inserts a record as a writer would, in `db` (an open transaction when the test holds one). */
async function writeRecord(db: Knex | Knex.Transaction, tenant: string, resource: string): Promise<void> {
  await db.raw(
    `INSERT INTO audit_records (tenant_id, id, at, operation, method, path, resource_id, status, outcome, request_id, actor_type, fields, detail, severity, transport)
     VALUES (?, gen_random_uuid(), now(), 'createNote', 'POST', '/notes', ?, 201, 'success', ?, 'human', '{}', '{}', 'info', 'http')`,
    [tenant, resource, `req-${resource}`],
  );
}

describe('audit sealer', () => {
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ plugins: PLUGINS, settings: { audit: { sweep_interval_seconds: 1 } } }, { plugins: [headerAuthPlugin] });
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;
  const auditor = (tenant: string) => as('auditor', tenant, ['runtime:audit:read']);
  const verify = (tenant: string) => k.request('GET', `/audit/verify?tenant_id=${tenant}`, { headers: auditor(tenant) });

  it('chains records nobody announced (left by an instance that stopped) on its periodic sweep', async () => {
    await writeRecord(db(), 'orphan', 'left-behind');
    let item: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 60 && !item?.hash; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      item = (await k.request('GET', '/audit', { headers: auditor('orphan') })).body.items[0];
    }
    expect(item).to.include({ seq: 1, resource_id: 'left-behind' });
    expect((await verify('orphan')).body).to.include({ valid: true, records: 1, unsealed: 0 });
  });

  (onPostgres ? describe : describe.skip)('on PostgreSQL, with concurrent writers', () => {
    it('lets a tenant\'s calls commit while another transaction of the tenant is still open', async () => {
      await db().transaction(async (trx) => {
        await writeRecord(trx, 'busy', 'slow-writer');
        const started = Date.now();
        const res = await k.request('POST', '/notes', { body: { id: 'quick', title: 'Not kept waiting' }, headers: as('alice', 'busy') });
        expect(res.status).to.equal(201);
        expect(Date.now() - started).to.be.below(2000);
      });
      expect((await verify('busy')).body).to.include({ valid: true, records: 2, unsealed: 0 });
    });

    it('chains nothing behind a transaction still running, and chains its record first once it commits', async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writer = db().transaction(async (trx) => {
        await writeRecord(trx, 'ordered', 'first-begun');
        await held;
      });
      // Give the writer its transaction id before the call below gets a later one.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await k.request('POST', '/notes', { body: { id: 'later', title: 'Begun later' }, headers: as('alice', 'ordered') })).status).to.equal(201);
      const meanwhile = await verify('ordered');
      expect(meanwhile.body).to.include({ valid: true, records: 0, unsealed: 1 });

      release();
      await writer;
      expect((await verify('ordered')).body).to.include({ valid: true, records: 2, unsealed: 0 });
      const items = (await k.request('GET', '/audit', { headers: auditor('ordered') })).body.items as Array<{ resource_id: string; seq: number }>;
      expect(items.map((r) => [r.resource_id, r.seq])).to.deep.equal([['later', 2], ['first-begun', 1]]);
    });
  });
});

describe('audit settings', () => {
  it('reads the sealing delay and sweep interval, with defaults', () => {
    expect(readSettings({})).to.deep.equal({ delayMs: 20, sweepMs: 60_000, batch: 1000 });
    expect(readSettings({ seal_delay_ms: 0, sweep_interval_seconds: 5 })).to.include({ delayMs: 0, sweepMs: 5000 });
  });

  it('refuses an unknown or malformed setting, naming it', () => {
    for (const settings of [{ seal_every: 5 }, { seal_delay_ms: -1 }, { sweep_interval_seconds: 0.5 }, { seal_delay_ms: '20' }]) {
      expect(() => readSettings(settings)).to.throw(/^settings\.audit: /);
    }
  });

  it('stops the boot on a wrong setting', async () => {
    let error: unknown;
    await startKernel({ plugins: PLUGINS, settings: { audit: { seal_every: 5 } } }, { plugins: [headerAuthPlugin] }).then(
      (k) => k.close(),
      (err: unknown) => {
        error = err;
      },
    );
    expect(String(error)).to.match(/settings\.audit: unknown setting "seal_every"/);
  });
});
