import { expect } from 'chai';
import type { KernelEvent } from '../../../kernel/events/types.js';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { TOPIC, tallies } from './tallies-plugin.js';

/**
 * A handler whose effect is a few writes without reads in between asks for a combined write: its
 * writes, its events and the call's audit record go to the database as ONE statement — no BEGIN,
 * no COMMIT — and commit all together or not at all.
 */
describe('pipeline: a combined write', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let statements: string[] = [];
  const got: KernelEvent[] = [];
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit'], auth: { mode: 'none' } }, { plugins: [tallies()] });
    tk.kernel.database.knex.on('query', (q: { sql: string }) => statements.push(q.sql));
    tk.kernel.services.events.subscribe(TOPIC, (event) => {
      got.push(event);
    });
    expect((await tk.request('POST', '/tallies', { body: { id: 'apples' } })).status).to.equal(201);
  });
  after(() => tk?.close());
  const db = () => tk.kernel.database.knex;
  const marks = async () => ((await db()('tally_marks').orderBy('mark')) as Array<{ mark: string }>).map((m) => m.mark);
  const keyRow = async (key: string) =>
    (await db()('kernel_idempotency_keys').where({ key }).first()) as Record<string, unknown> | undefined;
  const records = async (status: number) =>
    (await db()('audit_records').where({ operation: 'markTally', status })).length;

  /** The statements one call sent, once the sealer's own are left out. */
  async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
    statements = [];
    const res = await tk.request('POST', path, { body, headers });
    const sent = statements.filter((sql) => !/audit_seals|audit_heads|audit_clock|pg_snapshot_xmin/.test(sql));
    return { res, sent };
  }

  it("commits the handler's write, its event and the audit record in one statement, without a transaction around it", async () => {
    const { res, sent } = await call('/tallies/apples/marks', { mark: 'first' });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ id: 'apples', mark: 'first' });
    expect(await marks()).to.deep.equal(['first']);
    expect(await records(201)).to.equal(1);
    // The call's transaction would be knex's plain BEGIN (the sealer's runs read committed).
    expect(
      sent.filter((sql) => /^\s*BEGIN;/i.test(sql)),
      'no transaction',
    ).to.deep.equal([]);
    const writes = sent.filter((sql) => /INSERT/i.test(sql));
    expect(writes).to.have.length(1);
    expect(writes[0])
      .to.match(/INSERT INTO tally_marks/)
      .and.to.match(/INSERT INTO audit_records/)
      .and.to.match(/INSERT INTO kernel_events/);
    await until(async () => got.length === 1, 10_000);
    expect(got[0]?.payload).to.deep.equal({ id: 'apples', mark: 'first' });
  });

  it("writes nothing when a required part finds nothing — no effect, no event — answers that part's error, and still audits the refusal once", async () => {
    const eventsBefore = got.length;
    const missing = await call('/tallies/pears/marks', { mark: 'first' });
    expect(missing.res.status).to.equal(404);
    expect((missing.res.body as { error: { code: string } }).error.code).to.equal('not_found');
    const again = await call('/tallies/apples/marks', { mark: 'first' });
    expect(again.res.status).to.equal(409);
    expect((again.res.body as { error: { code: string } }).error.code).to.equal('conflict');
    expect(await marks()).to.deep.equal(['first']);
    expect(await records(404)).to.equal(1);
    expect(await records(409)).to.equal(1);
    // The refusals' events were part of the statements that did not commit.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.length).to.equal(eventsBefore);
    expect(Number((await db()('kernel_events').where({ topic: TOPIC }).count({ n: '*' }).first())?.n)).to.equal(1);
  });

  it('groups concurrent calls into fewer statements, each call keeping its own outcome', async () => {
    statements = [];
    const calls = Array.from({ length: 24 }, (_, i) =>
      tk.request('POST', i === 7 ? '/tallies/plums/marks' : '/tallies/apples/marks', { body: { mark: `burst-${i}` } }),
    );
    const statuses = (await Promise.all(calls)).map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).to.have.length(23);
    expect(statuses[7]).to.equal(404);
    const stored = await marks();
    expect(stored.filter((m) => m.startsWith('burst-'))).to.have.length(23);
    expect(stored).to.not.include('burst-7');
    expect(await records(404)).to.equal(2);
    const combined = statements.filter((sql) => /INSERT INTO tally_marks/.test(sql)).length;
    // The calls that arrive while a statement runs go together as the next one (on the embedded
    // database one at a time, on a server two at once); a group that fails is sent again one by one.
    expect(combined).to.be.below(24);
  });

  it('runs the call again in a transaction when its handler says it needs one: one effect, one record', async () => {
    const { res, sent } = await call('/tallies/apples/marks', { mark: 'tx-1' });
    expect(res.status).to.equal(201);
    expect(sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.have.length(1);
    expect(sent.filter((sql) => /INSERT INTO tally_marks/.test(sql))).to.have.length(1);
    expect((await marks()).filter((m) => m === 'tx-1')).to.have.length(1);
    expect((await db()('audit_records').where({ operation: 'markTally', status: 201 })).length).to.be.above(0);
  });

  it('runs the call again in a transaction when an orTransaction part writes nothing; the transaction answers', async () => {
    const before404 = await records(404);
    const before201 = await records(201);
    const held = await call('/tallies/apples/marks', { mark: 'guard-1' });
    expect(held.res.status).to.equal(201);
    expect(held.sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.deep.equal([]);
    const missing = await call('/tallies/figs/marks', { mark: 'guard-2' });
    expect(missing.res.status).to.equal(404);
    // The combined statement first (it wrote nothing), then the transaction that answered.
    const inserts = missing.sent.filter((sql) => /INSERT INTO tally_marks/.test(sql));
    expect(inserts).to.have.length(2);
    expect(inserts[0]).to.match(/INSERT INTO audit_records/);
    expect(missing.sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.have.length(1);
    expect(await marks())
      .to.include('guard-1')
      .and.not.include('guard-2');
    expect(await records(201)).to.equal(before201 + 1);
    expect(await records(404)).to.equal(before404 + 1);
  });

  it('runs a dry run in a transaction as before', async () => {
    const dry = await call('/tallies/apples/marks?dry_run=true', { mark: 'dry' }, { 'Idempotency-Key': 'k-dry' });
    expect(dry.res.status).to.equal(200);
    expect(dry.sent.some((sql) => /^\s*BEGIN;/i.test(sql))).to.equal(true);
    expect(await marks()).to.not.include('dry');
    expect(await keyRow('k-dry')).to.equal(undefined);
  });

  describe('with an idempotency key', () => {
    const keyed = (mark: string, key: string, tally = 'apples') =>
      call(`/tallies/${tally}/marks`, { mark }, { 'Idempotency-Key': key });
    const recordsOf = async (key: string) =>
      (
        (await db()('audit_records').where({ operation: 'markTally', idempotency_key: key }).orderBy('at')) as Array<{
          outcome: string;
          status: number;
        }>
      ).map((r) => `${r.outcome} ${r.status}`);

    it('claims the key, applies the effect and writes the audit record and the stored response in one statement', async () => {
      const first = await keyed('keyed', 'k-1');
      expect(first.res.status).to.equal(201);
      expect(first.sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.deep.equal([]);
      const writes = first.sent.filter((sql) => /INSERT/i.test(sql));
      expect(writes).to.have.length(1);
      expect(writes[0])
        .to.match(/INSERT INTO kernel_idempotency_keys/)
        .and.to.match(/INSERT INTO tally_marks/)
        .and.to.match(/INSERT INTO audit_records/);
      expect((await keyRow('k-1'))?.status).to.equal(201);

      // A retry: the statement claims nothing and writes nothing; a second one reads the stored answer.
      const again = await keyed('keyed', 'k-1');
      expect(again.res.status).to.equal(201);
      expect(again.res.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.res.text).to.equal(first.res.text);
      expect(again.sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.deep.equal([]);
      expect((await marks()).filter((m) => m === 'keyed')).to.have.length(1);
      expect(await recordsOf('k-1')).to.deep.equal(['success 201', 'replayed 201']);
    });

    it('a keyed call sent to a transaction claims its key there: a retry replays it', async () => {
      const first = await keyed('tx-keyed', 'k-tx');
      expect(first.res.status).to.equal(201);
      expect(first.sent.filter((sql) => /^\s*BEGIN;/i.test(sql))).to.have.length(1);
      const again = await keyed('tx-keyed', 'k-tx');
      expect(again.res.status).to.equal(201);
      expect(again.res.headers.get('idempotent-replayed')).to.equal('true');
      expect((await marks()).filter((m) => m === 'tx-keyed')).to.have.length(1);
    });

    it('refuses the key with another payload (422) and writes nothing of that call but its record', async () => {
      const other = await keyed('other', 'k-1');
      expect(other.res.status).to.equal(422);
      expect((other.res.body as { error: { code: string } }).error.code).to.equal('idempotency_key_reused');
      expect(await marks()).to.not.include('other');
      expect(await recordsOf('k-1')).to.deep.equal(['success 201', 'replayed 201', 'refused 422']);
    });

    it("answers a required part's error, stores no key and audits the refusal once; a retry acts", async () => {
      const missing = await keyed('late', 'k-late', 'cherries');
      expect(missing.res.status).to.equal(404);
      expect(await keyRow('k-late')).to.equal(undefined);
      expect(await recordsOf('k-late')).to.deep.equal(['refused 404']);
      await tk.request('POST', '/tallies', { body: { id: 'cherries' } });
      const retried = await keyed('late', 'k-late', 'cherries');
      expect(retried.res.status).to.equal(201);
      expect(retried.res.headers.get('idempotent-replayed')).to.equal(null);
      expect(await recordsOf('k-late')).to.deep.equal(['refused 404', 'success 201']);
    });

    it('acts again once the stored response expired', async () => {
      await db()('kernel_idempotency_keys')
        .where({ key: 'k-late' })
        .update({ expires_at: new Date(Date.now() - 1000) });
      await db()('tally_marks').where({ tally_id: 'cherries', mark: 'late' }).delete();
      const again = await keyed('late', 'k-late', 'cherries');
      expect(again.res.status).to.equal(201);
      expect(again.res.headers.get('idempotent-replayed')).to.equal(null);
      expect(new Date((await keyRow('k-late'))?.expires_at as string).getTime()).to.be.above(Date.now());
    });

    it('answers 409 with Retry-After while a call with the key holds it, and writes nothing', async function () {
      // Holding the key's lock from outside takes a second connection: only a server has one.
      if (!onPostgres) this.skip();
      const row = (await keyRow('k-1')) as { tenant_id: string; subject_id: string; operation: string };
      const holder = await db().transaction();
      try {
        await holder.raw('SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))', [
          `${row.tenant_id}\u001f${row.operation}`,
          `${row.subject_id}\u001fk-held`,
        ]);
        const busy = await keyed('held', 'k-held');
        expect(busy.res.status).to.equal(409);
        expect(busy.res.headers.get('retry-after')).to.equal('1');
      } finally {
        await holder.rollback();
      }
      expect(await marks()).to.not.include('held');
      expect(await keyRow('k-held')).to.equal(undefined);
      expect((await keyed('held', 'k-held')).res.status).to.equal(201);
    });

    it('many concurrent identical calls: one effect, one record of it; the rest replay it or get 409', async () => {
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          tk.request('POST', '/tallies/apples/marks', {
            body: { mark: 'storm' },
            headers: { 'Idempotency-Key': 'k-storm' },
          }),
        ),
      );
      const acted = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      const replayed = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
      const busy = results.filter((r) => r.status === 409);
      expect(acted).to.have.length(1);
      expect(replayed.length + busy.length).to.equal(39);
      for (const r of replayed) expect(r.text).to.equal(acted[0]?.text);
      for (const r of busy) expect(r.headers.get('retry-after')).to.equal('1');
      expect((await marks()).filter((m) => m === 'storm')).to.have.length(1);
      const records = await recordsOf('k-storm');
      expect(records.filter((r) => r === 'success 201')).to.have.length(1);
      expect(records.filter((r) => r === 'replayed 201')).to.have.length(replayed.length);
      expect(records).to.have.length(40);
    });
  });
});
