import { expect } from 'chai';
import { purgeExpiredKeys } from '../../../kernel/idempotency/store.js';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { PLUGINS, as, auditRows, headerAuthPlugin } from '../pipeline/helpers.js';

/** A clock the test moves instead of sleeping. */
function movableClock(): { now(): Date; advance(ms: number): void } {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) };
}

describe('idempotency keys', () => {
  let k: TestKernel;
  const clock = movableClock();
  before(async () => {
    k = await startKernel(
      { plugins: PLUGINS, idempotency: { retention_hours: 2 } },
      { plugins: [headerAuthPlugin], clock },
    );
  });
  after(() => k.close());
  const db = () => k.kernel.database.knex;
  const alice = as('alice', 'acme');

  describe('POST /components with idempotency_key', () => {
    it('replays the stored response byte for byte, with Idempotent-Replayed, and creates once', async () => {
      const first = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Once', idempotency_key: 'create-once' },
        headers: alice,
      });
      expect(first.status).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const again = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Once' },
        headers: { ...alice, 'idempotency-key': 'create-once' },
      });
      expect(again.status).to.equal(201);
      expect(again.text).to.equal(first.text);
      expect(again.headers.get('location')).to.equal('/components/once');
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(await db()('components').where({ tenant_id: 'acme', id: 'once' })).to.have.length(1);
      const records = await auditRows(db(), { tenant_id: 'acme', idempotency_key: 'create-once' });
      expect(records.map((r) => r.outcome)).to.deep.equal(['success', 'replayed']);
    });

    it('refuses the same key with a different payload: 422 idempotency_key_reused, no effect', async () => {
      const res = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Other' },
        headers: { ...alice, 'idempotency-key': 'create-once' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('idempotency_key_reused');
      expect(await db()('components').where({ tenant_id: 'acme', id: 'other' }).first()).to.equal(undefined);
    });

    it('refuses a header key that contradicts the body key', async () => {
      const res = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Both', idempotency_key: 'a' },
        headers: { ...alice, 'idempotency-key': 'b' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('bad_request');
    });

    it('scopes keys to the principal and the tenant', async () => {
      const bob = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Bobs' },
        headers: { ...as('bob', 'acme'), 'idempotency-key': 'create-once' },
      });
      expect(bob.status).to.equal(201);
      expect(bob.body.id).to.equal('bobs');
      const elsewhere = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Once' },
        headers: { ...as('alice', 'other'), 'idempotency-key': 'create-once' },
      });
      expect(elsewhere.status).to.equal(201);
      expect(elsewhere.headers.get('idempotent-replayed')).to.equal(null);
      expect(elsewhere.body.tenant_id).to.equal('other');
    });

    it('does not keep the key of a call that failed: a retry runs again', async () => {
      const failed = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Once' },
        headers: { ...alice, 'idempotency-key': 'dup' },
      });
      expect(failed.status).to.equal(409);
      await db()('components').where({ tenant_id: 'acme', id: 'once' }).delete();
      const retried = await k.request('POST', '/components', {
        body: { type: 'passthrough', name: 'Once' },
        headers: { ...alice, 'idempotency-key': 'dup' },
      });
      expect(retried.status).to.equal(201);
      expect(retried.headers.get('idempotent-replayed')).to.equal(null);
    });
  });

  describe('POST /components/{id}/start|stop|restart with request_id', () => {
    before(async () => {
      await k.request('POST', '/components', { body: { type: 'passthrough', name: 'Engine' }, headers: alice });
    });

    it('takes the key from the request_id body field or the Idempotency-Key header, for the same intent', async () => {
      const first = await k.request('POST', '/components/engine/start', {
        body: { request_id: 'start-1', reason: 'deploy' },
        headers: alice,
      });
      expect(first.status).to.equal(200);
      expect(first.body.component.revision).to.equal(2);
      const viaHeader = await k.request('POST', '/components/engine/start', {
        body: { reason: 'deploy' },
        headers: { ...alice, 'idempotency-key': 'start-1' },
      });
      expect(viaHeader.text).to.equal(first.text);
      expect(viaHeader.headers.get('idempotent-replayed')).to.equal('true');
      expect((await db()('components').where({ tenant_id: 'acme', id: 'engine' }).first()).revision).to.equal(2);
    });

    it('keeps one key per operation: the same key on stop is a different intent', async () => {
      const stop = await k.request('POST', '/components/engine/stop', {
        body: { request_id: 'start-1', reason: 'deploy' },
        headers: alice,
      });
      expect(stop.status).to.equal(200);
      expect(stop.headers.get('idempotent-replayed')).to.equal(null);
      expect(stop.body.component.state).to.equal('stopped');
    });

    it('20 concurrent requests with one key: one effect, one audit record of it, the rest replay or get 409 with Retry-After', async () => {
      const before = (await db()('components').where({ tenant_id: 'acme', id: 'engine' }).first()).revision as number;
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          k.request('POST', '/components/engine/restart', {
            body: { request_id: 'restart-burst', reason: 'burst' },
            headers: alice,
          }),
        ),
      );
      const executed = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
      const replayed = results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'true');
      const busy = results.filter((r) => r.status === 409);
      expect(executed).to.have.length(1);
      expect(replayed.length + busy.length).to.equal(19);
      for (const r of replayed) expect(r.text).to.equal(executed[0]!.text);
      for (const r of busy) {
        expect(r.body.error.code).to.equal('conflict');
        expect(r.headers.get('retry-after')).to.equal('1');
      }
      expect((await db()('components').where({ tenant_id: 'acme', id: 'engine' }).first()).revision).to.equal(
        before + 1,
      );
      const records = await auditRows(db(), { tenant_id: 'acme', idempotency_key: 'restart-burst' });
      expect(records).to.have.length(20);
      expect(records.filter((r) => r.outcome === 'success')).to.have.length(1);
      expect(records.filter((r) => r.outcome === 'replayed')).to.have.length(replayed.length);
      expect(records.filter((r) => r.outcome === 'refused' && r.status === 409)).to.have.length(busy.length);
      if (onPostgres) expect(busy.length + replayed.length).to.equal(19);
      // A retry after the burst always gets the stored response.
      const retry = await k.request('POST', '/components/engine/restart', {
        body: { request_id: 'restart-burst', reason: 'burst' },
        headers: alice,
      });
      expect(retry.text).to.equal(executed[0]!.text);
    });
  });

  describe('retention', () => {
    it('forgets a key after the retention: the same key then acts again, and expired keys are purged', async () => {
      const first = await k.request('POST', '/notes', {
        body: { id: 'kept', title: 'Kept' },
        headers: { ...alice, 'idempotency-key': 'retained' },
      });
      expect(first.status).to.equal(201);
      clock.advance(60 * 60 * 1000);
      const within = await k.request('POST', '/notes', {
        body: { id: 'kept', title: 'Kept' },
        headers: { ...alice, 'idempotency-key': 'retained' },
      });
      expect(within.headers.get('idempotent-replayed')).to.equal('true');
      clock.advance(61 * 60 * 1000);
      const after = await k.request('POST', '/notes', {
        body: { id: 'kept', title: 'Kept' },
        headers: { ...alice, 'idempotency-key': 'retained' },
      });
      expect(after.status).to.equal(409);
      expect(after.body.error.code).to.equal('duplicate_identifier');
      expect(after.headers.get('idempotent-replayed')).to.equal(null);

      const stored = await db()('kernel_idempotency_keys').count<{ count: string }[]>('* as count');
      expect(Number(stored[0]!.count)).to.be.greaterThan(0);
      clock.advance(3 * 60 * 60 * 1000);
      const purged = await purgeExpiredKeys(db(), clock.now());
      expect(purged).to.equal(Number(stored[0]!.count));
      expect(await db()('kernel_idempotency_keys')).to.have.length(0);
    });

    it('purges in batches until no expired key is left, and keeps the live ones', async () => {
      for (const key of ['b1', 'b2', 'b3', 'b4', 'b5']) {
        const res = await k.request('POST', '/notes', {
          body: { id: `batch-${key}`, title: 'Batch' },
          headers: { ...alice, 'idempotency-key': key },
        });
        expect(res.status).to.equal(201);
      }
      clock.advance(3 * 60 * 60 * 1000);
      const live = await k.request('POST', '/notes', {
        body: { id: 'batch-live', title: 'Live' },
        headers: { ...alice, 'idempotency-key': 'live' },
      });
      expect(live.status).to.equal(201);
      const statements: string[] = [];
      const seeQuery = (query: { sql: string }) => {
        if (/DELETE FROM "?kernel_idempotency_keys/.test(query.sql)) statements.push(query.sql);
      };
      db().on('query', seeQuery);
      try {
        expect(await purgeExpiredKeys(db(), clock.now(), 2)).to.equal(5);
      } finally {
        db().removeListener('query', seeQuery);
      }
      expect(statements).to.have.length(3);
      const left = (await db()('kernel_idempotency_keys').select('key')) as Array<{ key: string }>;
      expect(left.map((r) => r.key)).to.deep.equal(['live']);
      const refused = await purgeExpiredKeys(db(), clock.now(), 0).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).to.be.instanceOf(RangeError);
    });

    it('finds expired keys through an index on expires_at', async () => {
      const indexes = await db().raw(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'kernel_idempotency_keys'`,
      );
      expect((indexes.rows as Array<{ indexdef: string }>).some((r) => /\(expires_at\)$/.test(r.indexdef))).to.equal(
        true,
      );
      // Built concurrently, outside a transaction; an interrupted build would have left it invalid.
      const valid = await db().raw(
        `SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('kernel_idempotency_keys_expires_at_index')`,
      );
      expect((valid.rows as Array<{ indisvalid: boolean }>).map((r) => r.indisvalid)).to.deep.equal([true]);
    });
  });
});
