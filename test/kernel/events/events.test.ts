import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { channelFor } from '../../../kernel/events/bus.js';
import { listenerName } from '../../../kernel/events/listen-postgres.js';
import type { Events, KernelEvent } from '../../../kernel/events/types.js';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { counter, sleep } from '../jobs/helpers.js';
import { until } from '../../support/poll.js';

const BARE = { plugins: ['system'], auth: { mode: 'none' } };

/** Collects what a subscription receives. */
function inbox(events: Events, topic: string): { got: KernelEvent[]; stop(): void } {
  const got: KernelEvent[] = [];
  const stop = events.subscribe(topic, (event) => {
    got.push(event);
  });
  return { got, stop };
}

describe('events within one kernel', function () {
  this.timeout(60_000);
  let k: TestKernel;
  before(async () => {
    k = await startKernel({ ...BARE, events: { poll_ms: 200, retention_seconds: 3600 } });
  });
  after(() => k.close());
  const events = () => k.kernel.services.events;
  const db = () => k.kernel.database.knex;
  const received = (path: string) => counter(k.kernel.services.metrics, 'kernel_events_received_total', { path });

  it('delivers each event to every subscriber of its topic, in publish order, and to no other topic', async () => {
    const first = inbox(events(), 'test.ordered');
    const second = inbox(events(), 'test.ordered');
    const other = inbox(events(), 'test.elsewhere');
    for (let i = 1; i <= 3; i++) await events().publish('test.ordered', { n: i });
    await until(async () => first.got.length === 3 && second.got.length === 3, 10_000);
    expect(first.got.map((e) => e.payload)).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(second.got.map((e) => e.id)).to.deep.equal(first.got.map((e) => e.id));
    expect(first.got[0]).to.include({ topic: 'test.ordered' });
    expect(first.got[0]?.publishedAt).to.be.instanceOf(Date);
    expect(other.got).to.deep.equal([]);
    for (const s of [first, second, other]) s.stop();
  });

  it('carries a small event whole in its notification (no read back), and a large one by id (read back) on a server — whole on the embedded database — both delivered alike', async () => {
    const box = inbox(events(), 'test.sizes');
    const readBacks: string[] = [];
    const spy = (query: { sql: string }) => {
      if (/FROM kernel_events WHERE id = ANY/.test(query.sql)) readBacks.push(query.sql);
    };
    db().on('query', spy);
    try {
      await events().publish('test.sizes', { small: true });
      await until(async () => box.got.length === 1, 10_000);
      expect(readBacks, 'the small event was not read back').to.deep.equal([]);
      const large = { text: 'x'.repeat(20_000) };
      await events().publish('test.sizes', large);
      await until(async () => box.got.length === 2, 10_000);
      // The embedded database's notification is a call within this process: no size limit, nothing read back.
      if (onPostgres) expect(readBacks.length, 'the large event was read back').to.be.greaterThan(0);
      else expect(readBacks, 'the large event was not read back').to.deep.equal([]);
    } finally {
      db().off('query', spy);
      box.stop();
    }
    expect(box.got.map((e) => e.payload)).to.deep.equal([{ small: true }, { text: 'x'.repeat(20_000) }]);
    for (const event of box.got) {
      expect(event.topic).to.equal('test.sizes');
      expect(event.id).to.match(/^[0-9]+$/);
      expect(event.publishedAt).to.be.instanceOf(Date);
      expect(Math.abs(Date.now() - event.publishedAt.getTime())).to.be.below(60_000);
    }
  });

  it('publishes inside a savepoint: nothing when the savepoint rolls back, the event once the outermost transaction commits', async () => {
    const box = inbox(events(), 'test.savepoint');
    await db().transaction(async (trx) => {
      await trx
        .transaction(async (inner) => {
          await events().publish('test.savepoint', { kept: false }, { db: inner });
          throw new Error('roll back the savepoint');
        })
        .catch(() => undefined);
      await trx.transaction((inner) => events().publish('test.savepoint', { kept: true }, { db: inner }));
      // Released, not committed: nothing may be delivered yet.
      await sleep(300);
      expect(box.got, 'delivered before the outer commit').to.deep.equal([]);
    });
    await until(async () => box.got.length >= 1, 10_000);
    await sleep(300);
    box.stop();
    expect(box.got.map((e) => e.payload)).to.deep.equal([{ kept: true }]);
  });

  it("publishes with the caller's transaction: nothing when it rolls back, the event once it commits", async () => {
    const box = inbox(events(), 'test.transactional');
    await db()
      .transaction(async (trx) => {
        await events().publish('test.transactional', { kept: false }, { db: trx });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db().transaction((trx) => events().publish('test.transactional', { kept: true }, { db: trx }));
    await events().publish('test.transactional', { marker: true });
    await until(async () => box.got.length >= 2, 10_000);
    await sleep(300);
    expect(box.got.map((e) => e.payload)).to.deep.equal([{ kept: true }, { marker: true }]);
    box.stop();
  });

  it('logs and counts a handler that throws; other subscribers and later events are unaffected', async () => {
    let calls = 0;
    const stopFailing = events().subscribe('test.failing', () => {
      calls += 1;
      throw new Error('handler broken on purpose');
    });
    const box = inbox(events(), 'test.failing');
    await events().publish('test.failing', { n: 1 });
    await events().publish('test.failing', { n: 2 });
    await until(async () => box.got.length === 2 && calls === 2, 10_000);
    expect(
      await counter(k.kernel.services.metrics, 'kernel_event_handler_failures_total', { topic: 'test.failing' }),
    ).to.equal(2);
    stopFailing();
    box.stop();
  });

  it('stops delivering to a subscriber once it unsubscribes', async () => {
    const box = inbox(events(), 'test.unsubscribed');
    const witness = inbox(events(), 'test.unsubscribed');
    await events().publish('test.unsubscribed', { n: 1 });
    await until(async () => box.got.length === 1, 10_000);
    box.stop();
    await events().publish('test.unsubscribed', { n: 2 });
    await until(async () => witness.got.length === 2, 10_000);
    expect(box.got).to.have.length(1);
    witness.stop();
  });

  it('refuses a malformed topic and an oversized payload', async () => {
    for (const topic of ['', 'Upper', 'has space', '.leading', 'x'.repeat(101)]) {
      const err = await events()
        .publish(topic, {})
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, topic).to.be.instanceOf(TypeError);
      expect(() => events().subscribe(topic, () => undefined), topic).to.throw(TypeError);
    }
    const big = await events()
      .publish('test.big', { blob: 'x'.repeat(70_000) })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(big).to.be.instanceOf(RangeError);
  });

  it('delivers by polling an event whose notification never came', async () => {
    const box = inbox(events(), 'test.unannounced');
    const before = await received('poll');
    // Written straight into the table, without pg_notify: what a lost notification looks like.
    await db().raw(`INSERT INTO kernel_events (topic, payload) VALUES ('test.unannounced', '{"quiet":true}')`);
    await until(async () => box.got.length === 1, 10_000);
    expect(box.got[0]?.payload).to.deep.equal({ quiet: true });
    expect(await received('poll')).to.equal(before + 1);
    box.stop();
  });

  it('delivers an event once even when both its notification and the poll find it', async () => {
    const box = inbox(events(), 'test.once');
    for (let i = 0; i < 20; i++) await events().publish('test.once', { n: i });
    await until(async () => box.got.length === 20, 10_000);
    // Several polls later, nothing came twice.
    await sleep(600);
    expect(box.got.map((e) => (e.payload as { n: number }).n)).to.deep.equal([...Array(20).keys()]);
    box.stop();
  });

  it('purges events past their retention on its job', async () => {
    await db().raw(
      `INSERT INTO kernel_events (topic, payload, created_at) VALUES ('test.old', '{}', now() - interval '2 hours'), ('test.young', '{}', now())`,
    );
    k.kernel.services.jobs.trigger('kernel.events-purge');
    const count = async (topic: string) =>
      Number((await db()('kernel_events').where({ topic }).count<Array<{ count: string }>>('* as count'))[0]?.count);
    await until(async () => (await count('test.old')) === 0, 10_000);
    expect(await count('test.young')).to.equal(1);
  });
});

describe('events on the embedded database', function () {
  this.timeout(60_000);
  let k: TestKernel;
  before(async function () {
    if (onPostgres) return this.skip();
    // The poll comes once at start and then a minute later: what arrives sooner came by its notification.
    k = await startKernel({ ...BARE, events: { poll_ms: 60_000, retention_seconds: 3600 } });
  });
  after(() => k?.close());

  it('sends no NOTIFY or LISTEN (its listeners are in this process) and still delivers each committed event by its notification', async () => {
    const events = k.kernel.services.events;
    const db = k.kernel.database.knex;
    const box = inbox(events, 'test.local');
    const statements: string[] = [];
    const spy = (query: { sql: string }) => statements.push(query.sql);
    db.on('query', spy);
    try {
      await events.publish('test.local', { n: 1 });
      await db.transaction((trx) => events.publish('test.local', { n: 2 }, { db: trx }));
      await db
        .transaction(async (trx) => {
          await events.publish('test.local', { n: 3 }, { db: trx });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await until(async () => box.got.length === 2, 10_000);
      await sleep(200);
    } finally {
      db.off('query', spy);
      box.stop();
    }
    expect(box.got.map((e) => e.payload)).to.deep.equal([{ n: 1 }, { n: 2 }]);
    expect(await counter(k.kernel.services.metrics, 'kernel_events_received_total', { path: 'notify' })).to.equal(2);
    expect(statements.filter((sql) => /pg_notify|NOTIFY|LISTEN/i.test(sql))).to.deep.equal([]);
  });
});

describe('events across two kernels on one database', function () {
  this.timeout(60_000);
  const schema = `t_events_${randomBytes(5).toString('hex')}`;
  let one: TestKernel;
  let two: TestKernel;
  let elsewhere: TestKernel;

  before(async function () {
    if (!onPostgres) {
      console.log(
        '      (skipped: two kernels cannot share the embedded database; runs when DATABASE_URL is set, as .ci/run does)',
      );
      return this.skip();
    }
    // Polling every minute: within a test, only a notification (or a reconnect's catch-up) delivers.
    const config = { ...BARE, events: { poll_ms: 60_000 } };
    one = await startKernel(config, { schema });
    two = await startKernel(config, { schema });
    elsewhere = await startKernel(config);
  });
  after(async () => {
    await elsewhere?.close();
    await closeSharingSchema(schema, one, two);
  });

  it('delivers an event published on one kernel to the subscribers of the other, through its notification', async () => {
    const there = inbox(two.kernel.services.events, 'test.across');
    const otherSchema = inbox(elsewhere.kernel.services.events, 'test.across');
    const id = await one.kernel.services.events.publish('test.across', { from: 'one' });
    await until(async () => there.got.length === 1, 10_000);
    expect(there.got[0]).to.deep.include({ id, payload: { from: 'one' } });
    expect(
      await counter(two.kernel.services.metrics, 'kernel_events_received_total', { path: 'notify' }),
    ).to.be.at.least(1);
    // A kernel in another schema shares the database's notifications, not its events.
    await sleep(300);
    expect(otherSchema.got).to.deep.equal([]);
    there.stop();
    otherSchema.stop();
  });

  it('reconnects its listener after the connection is killed, and catches up on what it missed', async () => {
    const there = inbox(two.kernel.services.events, 'test.reconnect');
    const name = listenerName(channelFor(schema));
    const listeners = async () =>
      Number(
        (
          await one.kernel.database.knex.raw(
            'SELECT count(*)::integer AS n FROM pg_stat_activity WHERE application_name = ?',
            [name],
          )
        ).rows[0].n,
      );
    expect(await listeners()).to.equal(2);
    // Kills both kernels' listening connections, then publishes while they are down.
    await one.kernel.database.knex.raw(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?',
      [name],
    );
    await one.kernel.services.events.publish('test.reconnect', { n: 1 });
    await until(async () => there.got.length === 1, 10_000);
    await until(async () => (await listeners()) === 2, 10_000);
    await one.kernel.services.events.publish('test.reconnect', { n: 2 });
    await until(async () => there.got.length === 2, 10_000);
    expect(there.got.map((e) => e.payload)).to.deep.equal([{ n: 1 }, { n: 2 }]);
    there.stop();
  });

  it('catches up after a reconnect once a transaction that held the horizon back ends', async () => {
    const there = inbox(two.kernel.services.events, 'test.held');
    const name = listenerName(channelFor(schema));
    const knex = one.kernel.database.knex;
    // A transaction with an id, left open: the poll reads nothing newer until it ends.
    const held = await knex.transaction();
    try {
      await held.raw('SELECT txid_current()');
      await knex.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?', [name]);
      await one.kernel.services.events.publish('test.held', { n: 1 });
      await until(
        async () =>
          Number(
            (await knex.raw('SELECT count(*)::integer AS n FROM pg_stat_activity WHERE application_name = ?', [name]))
              .rows[0].n,
          ) === 2,
        10_000,
      );
      // The reconnect's first poll ran while the horizon was held: it found nothing to deliver.
      await sleep(500);
      expect(there.got).to.deep.equal([]);
    } finally {
      await held.rollback();
    }
    // The poll interval is a minute: only the reconnect's catch-up, looking again, delivers it now.
    await until(async () => there.got.length === 1, 10_000);
    expect(there.got[0]?.payload).to.deep.equal({ n: 1 });
    there.stop();
  });
});
