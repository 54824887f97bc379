import { expect } from 'chai';
import { batchFingerprint, dedupKeyOf } from '../../../plugins/streams/encode.js';
import { messageIds } from '../../../plugins/streams/ids.js';
import { idAt, placeIn, runsOf } from '../../../plugins/streams/message-runs.js';
import { createMessageRuns } from '../../../plugins/streams/migrations/007_message_runs.js';
import { indexRunsByFirstOffset } from '../../../plugins/streams/migrations/008_runs_by_first_offset.js';
import type { NewMessage, StreamRef } from '../../../plugins/streams/backend.js';
import { natsBackend } from '../../../plugins/streams/nats-backend.js';
import type { TestKernel } from '../../support/kernel.js';
import { NATS_URL, startNatsKernel, stopNatsKernel } from './nats-support.js';

describe('message ids in runs', () => {
  it('names a batch with contiguous ids of the usual shape, in order, that no other batch falls between', () => {
    const a = messageIds(100);
    const b = messageIds(100);
    for (const id of [...a, ...b]) expect(id).to.match(/^msg_[a-z0-9]{27}$/);
    expect([...a].sort()).to.deep.equal(a);
    expect(runsOf(a)).to.deep.equal([[0, 100]]);
    a.forEach((id, n) => expect(idAt(a[0] as string, n)).to.equal(id));
    expect((b[0] as string) > (a[99] as string) || (b[99] as string) < (a[0] as string)).to.equal(true);
    expect(runsOf([...a, ...b])).to.deep.equal([
      [0, 100],
      [100, 200],
    ]);
  });

  it('continues a batch larger than one run in a new run', () => {
    const ids = messageIds(5000);
    expect(new Set(ids).size).to.equal(5000);
    expect(runsOf(ids)).to.deep.equal([
      [0, 4096],
      [4096, 5000],
    ]);
  });

  it('finds an id in its run, and nothing for ids of the run shape that the run does not hold', () => {
    const ids = messageIds(10);
    const first = ids[0] as string;
    expect(placeIn(first, 10, ids[7] as string)).to.equal(7);
    expect(placeIn(first, 10, first)).to.equal(0);
    expect(placeIn(first, 10, idAt(first, 10))).to.equal(undefined);
    expect(placeIn(first, 10, `${(ids[7] as string).slice(0, -1)}G`)).to.equal(undefined);
    expect(placeIn(first, 10, (ids[7] as string).toUpperCase())).to.equal(undefined);
    expect(placeIn('msg_ahead_1', 1, 'msg_ahead_1')).to.equal(0);
    expect(runsOf(['msg_ahead_1', 'msg_ahead_2'])).to.deep.equal([
      [0, 1],
      [1, 2],
    ]);
  });
});

describe('streams on nats: the index of runs', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startNatsKernel();
  });
  after(() => stopNatsKernel(tk));

  async function createStream(id: string, body: Record<string, unknown> = {}): Promise<void> {
    const res = await tk.request('POST', '/streams', { body: { id, name: id, ...body } });
    expect(res.status, res.text).to.equal(201);
  }

  async function publish(
    stream: string,
    messages: unknown[],
  ): Promise<Array<{ id: string; partition: number; offset: number }>> {
    const res = await tk.request('POST', `/streams/${stream}/messages`, { body: { messages } });
    expect(res.status, res.text).to.equal(201);
    return res.body.messages;
  }

  async function publishKeyed(
    stream: string,
    messages: unknown[],
    key: string,
  ): Promise<Array<{ id: string; partition: number; offset: number }>> {
    const res = await tk.request('POST', `/streams/${stream}/messages`, { body: { messages, idempotency_key: key } });
    expect(res.status, res.text).to.equal(201);
    return res.body.messages;
  }

  it('finds every message by id, and pages GET /messages across batch boundaries once each in id order, after concurrent publishers interleaved their offsets', async () => {
    await createStream('runs-a', { partitions: 3 });
    await createStream('runs-b', { partitions: 2 });
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, b) =>
        publish(
          b % 2 === 0 ? 'runs-a' : 'runs-b',
          Array.from({ length: 15 + b }, (_, i) => ({ key: `k${i % 5}`, value: { b, i } })),
        ),
      ),
    );
    // The publishes ran together: their offsets interleave in JetStream, their ids do not.
    const sent = batches.flatMap((batch, b) =>
      batch.map((m, i) => ({ ...m, stream: b % 2 === 0 ? 'runs-a' : 'runs-b', value: { b, i } })),
    );
    expect(
      await tk.kernel.database
        .knex('streams_message_runs')
        .where({ tenant_id: 'default' })
        .count({ n: '*' })
        .then((r) => Number(r[0]?.n)),
    ).to.equal(8);
    for (const m of sent) {
      const res = await tk.request('GET', `/messages/${m.id}`);
      expect(res.status, m.id).to.equal(200);
      expect(res.body).to.include({ id: m.id, stream: m.stream, partition: m.partition, offset: m.offset });
      expect(res.body.value).to.deep.equal(m.value);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await tk.request('GET', `/messages?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).to.equal(200);
      seen.push(...res.body.items.map((m: { id: string }) => m.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(seen).to.deep.equal(sent.map((m) => m.id).sort());
    const onlyB: string[] = [];
    cursor = null;
    do {
      const res = await tk.request(
        'GET',
        `/messages?stream=runs-b&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      onlyB.push(...res.body.items.map((m: { id: string }) => m.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(onlyB).to.deep.equal(
      sent
        .filter((m) => m.stream === 'runs-b')
        .map((m) => m.id)
        .sort(),
    );
    // An id of a run's shape beyond its last message, or between runs, is no message.
    const last = (batches[0] as Array<{ id: string }>).at(-1)?.id as string;
    expect((await tk.request('GET', `/messages/${idAt(last, 1)}`)).status).to.equal(404);
  });

  it("removes only retention's messages from a run spanning partitions, and counts lag over what is left", async () => {
    await createStream('runs-kept', { partitions: 2, retention: { max_messages: 2 } });
    const sent = await publish(
      'runs-kept',
      Array.from({ length: 10 }, (_, i) => ({ key: i % 2 === 0 ? 'left' : 'right', value: i })),
    );
    const partitions = [...new Set(sent.map((m) => m.partition))];
    expect(partitions).to.have.length(2);
    const keep = new Set(
      partitions.flatMap((p) =>
        sent
          .filter((m) => m.partition === p)
          .slice(-2)
          .map((m) => m.id),
      ),
    );
    const deadline = Date.now() + 60_000;
    let left = sent.length;
    while (Date.now() < deadline && left > keep.size) {
      tk.kernel.services.jobs.trigger('streams.retention');
      await new Promise((r) => setTimeout(r, 200));
      left = (await tk.request('GET', '/messages?stream=runs-kept&limit=100')).body.items.length;
    }
    for (const [i, m] of sent.entries())
      expect((await tk.request('GET', `/messages/${m.id}`)).status, `message ${i}`).to.equal(
        keep.has(m.id) ? 200 : 404,
      );
    const res = await tk.request('GET', '/messages?stream=runs-kept&limit=100');
    expect(res.body.items.map((m: { id: string }) => m.id)).to.deep.equal(
      sent.filter((m) => keep.has(m.id)).map((m) => m.id),
    );
    const p = partitions[0] as number;
    const first = sent.find((m) => m.partition === p) as { offset: number };
    await tk.request('POST', '/streams/runs-kept/consumers/c/offsets', {
      body: { offsets: [{ partition: p, offset: first.offset }] },
    });
    const consumers = await tk.request('GET', '/streams/runs-kept/consumers');
    expect(consumers.body.items.find((c: { partition: number }) => c.partition === p)).to.include({ lag: 2 });
  });

  it('keeps per-message rows of the former index through migration 007: readable by id, replays still known', async () => {
    await createStream('runs-legacy');
    const [m] = await publish('runs-legacy', [{ value: 'legacy' }]);
    const db = tk.kernel.database.knex;
    await db.transaction(async (trx) => {
      // Back to the per-message table, with a replay row as it used to record them, then forward again.
      await (indexRunsByFirstOffset.down as NonNullable<typeof indexRunsByFirstOffset.down>)(trx);
      await (createMessageRuns.down as NonNullable<typeof createMessageRuns.down>)(trx);
      expect(
        await trx('streams_message_index')
          .where({ tenant_id: 'default', id: m?.id })
          .pluck('offset')
          .then((o) => o.map(Number)),
      ).to.deep.equal([m?.offset]);
      await trx('streams_message_index').insert({
        tenant_id: 'default',
        stream_uid: 'gone-uid',
        partition: 0,
        offset: 99,
        id: 'msg_replayed_copy',
        stream: 'x',
        published_at: new Date(),
        replay_of: m?.id,
      });
      await createMessageRuns.up(trx);
      await indexRunsByFirstOffset.up(trx);
    });
    const res = await tk.request('GET', `/messages/${m?.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.value).to.equal('legacy');
    expect(
      await db('streams_message_replays').where({ tenant_id: 'default', replay_of: m?.id }).pluck('id'),
    ).to.deep.equal(['msg_replayed_copy']);
  });

  it('indexes a keyed publish retried after its transaction rolled back under the ids JetStream kept, so each is found by id as itself', async () => {
    await createStream('runs-retried');
    const db = tk.kernel.database.knex;
    const row = (await db('streams_streams').where({ tenant_id: 'default', id: 'runs-retried' }).first()) as {
      uid: string;
    };
    const ref: StreamRef = {
      tenantId: 'default',
      id: 'runs-retried',
      uid: row.uid,
      partitions: 1,
      maxAgeHours: null,
      maxMessages: null,
    };
    // Each attempt names its messages afresh, as the publish handler does for every call.
    const attempt = (): NewMessage[] =>
      messageIds(3).map((id, i) => ({
        id,
        partition: 0,
        key: null,
        headers: {},
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(i)),
        replayOf: null,
      }));
    const backend = natsBackend(NATS_URL);
    try {
      const first = attempt();
      await db
        .transaction(async (trx) => {
          await backend.append(trx, ref, first, new Date(), { dryRun: false, dedupKey: 'retried-1' });
          throw new Error('the call failed after JetStream took the messages');
        })
        .catch(() => undefined);
      const appended = await db.transaction((trx) =>
        backend.append(trx, ref, attempt(), new Date(), { dryRun: false, dedupKey: 'retried-1' }),
      );
      expect(appended.map((a) => a.id)).to.deep.equal(first.map((m) => m.id));
      for (const [i, a] of appended.entries()) {
        const res = await tk.request('GET', `/messages/${a.id}`);
        expect(res.status, a.id).to.equal(200);
        expect(res.body).to.include({ id: a.id, offset: a.offset, value: i });
      }
    } finally {
      await backend.close?.();
    }
  });

  it('publishes a keyed batch whose earlier attempt under the same key, with other messages, reached JetStream but never committed: the new messages are stored, not dropped as its duplicates', async () => {
    await createStream('runs-rekeyed');
    const db = tk.kernel.database.knex;
    const row = (await db('streams_streams').where({ tenant_id: 'default', id: 'runs-rekeyed' }).first()) as {
      uid: string;
    };
    const ref: StreamRef = {
      tenantId: 'default',
      id: 'runs-rekeyed',
      uid: row.uid,
      partitions: 1,
      maxAgeHours: null,
      maxMessages: null,
    };
    const earlier: NewMessage[] = [
      {
        id: messageIds(1)[0] as string,
        partition: 0,
        key: null,
        headers: {},
        contentType: 'application/json',
        body: Buffer.from('"earlier"'),
        replayOf: null,
      },
    ];
    const backend = natsBackend(NATS_URL);
    try {
      // The earlier attempt as the service makes it, its transaction rolled back (its idempotency key is not stored).
      await db
        .transaction(async (trx) => {
          await backend.append(trx, ref, earlier, new Date(), {
            dryRun: false,
            dedupKey: dedupKeyOf('rekeyed-1', batchFingerprint(earlier)),
          });
          throw new Error('the call failed after JetStream took the messages');
        })
        .catch(() => undefined);
    } finally {
      await backend.close?.();
    }
    const [m] = await publishKeyed('runs-rekeyed', [{ value: 'later' }], 'rekeyed-1');
    const res = await tk.request('GET', `/messages/${m?.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.value).to.equal('later');
  });
});
