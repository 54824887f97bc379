import { expect } from 'chai';
import type { TestKernel } from '../../support/kernel.js';

/**
 * The one conformance suite every stream backend passes, through the API: publish, batch, keys →
 * partitions, reads by offset and by cursor, idempotent publish, retention, consumer offsets and
 * lag, tenant isolation, and paging while others publish.
 */
export interface ConformanceTarget {
  /** Boots a kernel with the backend under test; the clock can be moved forward. */
  boot(): Promise<{ tk: TestKernel; advance(seconds: number): void }>;
  /** Whether offsets are dense (0, 1, 2...) per partition; otherwise only increasing. */
  denseOffsets: boolean;
}

export function streamConformance(name: string, target: ConformanceTarget): void {
  describe(`stream backend conformance: ${name}`, function () {
    this.timeout(120_000);
    let tk: TestKernel;
    let advance: (seconds: number) => void;
    let counter = 0;

    before(async () => {
      ({ tk, advance } = await target.boot());
    });
    after(() => tk?.close());

    async function createStream(body: Record<string, unknown> = {}, tenant = 'default'): Promise<string> {
      const id = `s-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      const res = await tk.request('POST', '/streams', { body: { id, name: id, tenant_id: tenant, ...body } });
      expect(res.status, res.text).to.equal(201);
      return id;
    }

    async function publish(
      stream: string,
      messages: unknown[],
      extra: Record<string, unknown> = {},
      tenant = 'default',
    ): Promise<Array<{ id: string; partition: number; offset: number }>> {
      const res = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages, tenant_id: tenant, ...extra },
      });
      expect(res.status, res.text).to.equal(201);
      return res.body.messages;
    }

    async function readAll(stream: string, query = '', tenant = 'default'): Promise<any[]> {
      const out: any[] = [];
      let cursor: string | null = null;
      do {
        const res = await tk.request(
          'GET',
          `/streams/${stream}/messages?tenant_id=${tenant}&limit=1000${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status, res.text).to.equal(200);
        out.push(...res.body.items);
        cursor = res.headers.get('x-next-cursor');
      } while (cursor);
      return out;
    }

    function increasing(offsets: number[]): void {
      for (let i = 1; i < offsets.length; i++) expect(offsets[i] as number).to.be.greaterThan(offsets[i - 1] as number);
    }

    it('publishes one message and reads it back with key, headers, value, size and time', async () => {
      const stream = await createStream();
      const [sent] = await publish(stream, [{ key: 'order-1', headers: { source: 'test' }, value: { total: 42 } }]);
      expect(sent?.id).to.match(/^msg_/);
      const [read] = await readAll(stream);
      expect(read).to.include({
        id: sent?.id,
        stream,
        partition: 0,
        offset: sent?.offset,
        key: 'order-1',
        content_type: 'application/json',
        replay_of: null,
      });
      expect(read.headers).to.deep.equal({ source: 'test' });
      expect(read.value).to.deep.equal({ total: 42 });
      expect(read.size).to.equal(Buffer.byteLength('{"total":42}'));
      expect(Date.parse(read.published_at)).to.be.closeTo(Date.now(), 3_600_000);
      const one = await tk.request('GET', `/messages/${sent?.id}`);
      expect(one.status).to.equal(200);
      expect(one.body).to.include({ id: sent?.id, stream });
      expect(one.body.deliveries).to.deep.equal([]);
    });

    it('publishes a batch in order: offsets grow by publish order', async () => {
      const stream = await createStream();
      const sent = await publish(
        stream,
        Array.from({ length: 20 }, (_, i) => ({ value: { i } })),
      );
      expect(sent).to.have.length(20);
      const offsets = sent.map((m) => m.offset);
      increasing(offsets);
      if (target.denseOffsets) expect(offsets).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      const read = await readAll(stream);
      expect(read.map((m) => m.value.i)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      expect(read.map((m) => m.id)).to.deep.equal(sent.map((m) => m.id));
    });

    it('stores raw bodies: body_base64 in JSON, and application/octet-stream with X-Message-Key', async () => {
      const stream = await createStream({ partitions: 4 });
      const bytes = Buffer.from([0, 1, 2, 250, 251, 255]);
      const [a] = await publish(stream, [{ key: 'k', body_base64: bytes.toString('base64') }]);
      const raw = await tk.request('POST', `/streams/${stream}/messages?tenant_id=default`, {
        raw: bytes,
        contentType: 'application/octet-stream',
        headers: { 'x-message-key': 'k' },
      });
      expect(raw.status, raw.text).to.equal(201);
      const b = raw.body.messages[0];
      expect(b.partition).to.equal(a?.partition);
      for (const id of [a?.id, b.id]) {
        const shown = await tk.request('GET', `/messages/${id}`);
        expect(shown.body).to.include({
          content_type: 'application/octet-stream',
          body_base64: bytes.toString('base64'),
          size: 6,
          key: 'k',
        });
        const body = await fetch(`${tk.url}/messages/${id}/body`);
        expect(body.status).to.equal(200);
        expect(body.headers.get('content-type')).to.equal('application/octet-stream');
        expect(Buffer.from(await body.arrayBuffer()).equals(bytes)).to.equal(true);
      }
    });

    it('sends the same key to the same partition, across publishes, and keeps each key in order', async () => {
      const stream = await createStream({ partitions: 8 });
      const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
      const first = await publish(
        stream,
        keys.flatMap((key) => [0, 1, 2].map((n) => ({ key, value: { key, n } }))),
      );
      const second = await publish(
        stream,
        keys.map((key) => ({ key, value: { key, n: 3 } })),
      );
      const partitionOf = new Map<string, number>();
      const all = [...first, ...second];
      const sentKeys = [...keys.flatMap((k) => [k, k, k]), ...keys];
      all.forEach((m, i) => {
        const key = sentKeys[i] as string;
        if (!partitionOf.has(key)) partitionOf.set(key, m.partition);
        expect(m.partition, key).to.equal(partitionOf.get(key));
      });
      expect(new Set(partitionOf.values()).size, 'keys spread over partitions').to.be.greaterThan(1);
      const read = await readAll(stream);
      for (const key of keys) {
        const mine = read.filter((m) => m.key === key);
        expect(mine.map((m) => m.value.n)).to.deep.equal([0, 1, 2, 3]);
        increasing(mine.map((m) => m.offset));
      }
    });

    it('reads from an offset and pages with the cursor, within one partition or all', async () => {
      const stream = await createStream({ partitions: 2 });
      const sent = await publish(
        stream,
        Array.from({ length: 30 }, (_, i) => ({ key: i % 2 === 0 ? 'even' : 'odd', value: i })),
      );
      const evenPartition = (sent[0] as { partition: number }).partition;
      const evenOffsets = sent.filter((_, i) => i % 2 === 0).map((m) => m.offset);
      const from = evenOffsets[5] as number;
      const first = await tk.request(
        'GET',
        `/streams/${stream}/messages?partition=${evenPartition}&from_offset=${from}&limit=4`,
      );
      expect(first.status).to.equal(200);
      expect(first.body.items.map((m: any) => m.value)).to.deep.equal([10, 12, 14, 16]);
      const cursor = first.headers.get('x-next-cursor');
      expect(cursor).to.be.a('string');
      const second = await tk.request(
        'GET',
        `/streams/${stream}/messages?partition=${evenPartition}&from_offset=${from}&limit=4&cursor=${encodeURIComponent(cursor as string)}`,
      );
      expect(second.body.items.map((m: any) => m.value)).to.deep.equal([18, 20, 22, 24]);
      const rest = await readAll(stream, `&partition=${evenPartition}&from_offset=${from}`);
      expect(rest.map((m) => m.value)).to.deep.equal([10, 12, 14, 16, 18, 20, 22, 24, 26, 28]);
      // Cursor bound to its filters: presented with another partition it is refused.
      const other = await tk.request(
        'GET',
        `/streams/${stream}/messages?partition=${1 - evenPartition}&limit=4&cursor=${encodeURIComponent(cursor as string)}`,
      );
      expect(other.status).to.equal(400);
      const everything = await readAll(stream);
      expect(everything).to.have.length(30);
      expect(everything.map((m) => m.partition)).to.deep.equal(
        [...everything.map((m) => m.partition)].sort((a, b) => a - b),
      );
    });

    it('reads pages larger than a few messages across partitions, each message once, in (partition, offset) order', async () => {
      const stream = await createStream({ partitions: 2 });
      const sent = await publish(
        stream,
        Array.from({ length: 50 }, (_, i) => ({ key: `k${i % 5}`, value: i })),
      );
      const expected = [...sent].sort((a, b) => a.partition - b.partition || a.offset - b.offset).map((m) => m.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await tk.request(
          'GET',
          `/streams/${stream}/messages?limit=21${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status, res.text).to.equal(200);
        expect(res.body.items.length).to.be.at.most(21);
        seen.push(...res.body.items.map((m: any) => m.id));
        cursor = res.headers.get('x-next-cursor');
        pages++;
      } while (cursor && pages < 10);
      expect(seen).to.deep.equal(expected);
      const fromMiddle = sent.filter((m) => m.partition === (sent[0] as { partition: number }).partition);
      const start = (fromMiddle[3] as { offset: number }).offset;
      const tail = await tk.request(
        'GET',
        `/streams/${stream}/messages?partition=${(sent[0] as { partition: number }).partition}&from_offset=${start}&limit=1000`,
      );
      expect(tail.body.items.map((m: any) => m.id)).to.deep.equal(fromMiddle.slice(3).map((m) => m.id));
    });

    it('publishes nothing on a dry run, and writes one audit record per publish; a refused batch publishes nothing', async () => {
      const stream = await createStream();
      const dry = await tk.request('POST', `/streams/${stream}/messages?dry_run=true`, {
        body: { messages: [{ value: 'ghost' }] },
      });
      expect(dry.status, dry.text).to.equal(200);
      expect(dry.body.would.status).to.equal(201);
      const bad = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: [{ value: 'ok' }, { body_base64: '***' }] },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details[0].pointer).to.equal('/messages/1/body_base64');
      expect(await readAll(stream)).to.have.length(0);
      const res = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: [{ value: 1 }, { value: 2 }] },
      });
      expect(res.status, res.text).to.equal(201);
      const records = await tk.kernel.database
        .knex('audit_records')
        .where({ request_id: res.headers.get('x-request-id') });
      expect(records).to.have.length(1);
      expect(records[0]).to.include({ operation: 'publishMessages', resource_id: stream, outcome: 'success' });
      expect((await readAll(stream)).map((m) => m.value)).to.deep.equal([1, 2]);
      for (const m of res.body.messages) expect((await tk.request('GET', `/messages/${m.id}`)).status).to.equal(200);
    });

    it('publishes idempotently: the same key answers the first result and stores nothing more; other messages under it are refused', async () => {
      const stream = await createStream({ partitions: 3 });
      const batch = [{ key: 'a', value: 1 }, { value: 2 }, { key: 'c', value: 3 }];
      const first = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: batch, idempotency_key: 'batch-1' },
      });
      const again = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: batch, idempotency_key: 'batch-1' },
      });
      expect([first.status, again.status]).to.deep.equal([201, 201]);
      expect(again.body).to.deep.equal(first.body);
      expect(await readAll(stream)).to.have.length(3);
      const other = await tk.request('POST', `/streams/${stream}/messages`, {
        body: { messages: [{ value: 99 }], idempotency_key: 'batch-1' },
      });
      expect(other.status).to.equal(422);
      expect(other.body.error.code).to.equal('idempotency_key_reused');
      const header = await tk.request('POST', `/streams/${stream}/messages?tenant_id=default`, {
        raw: Buffer.from('x'),
        contentType: 'application/octet-stream',
        headers: { 'idempotency-key': 'raw-1' },
      });
      const headerAgain = await tk.request('POST', `/streams/${stream}/messages?tenant_id=default`, {
        raw: Buffer.from('x'),
        contentType: 'application/octet-stream',
        headers: { 'idempotency-key': 'raw-1' },
      });
      expect(headerAgain.body).to.deep.equal(header.body);
      expect(await readAll(stream)).to.have.length(4);
    });

    it('applies retention by count (per partition) and by age, in the retention job', async () => {
      const counted = await createStream({ retention: { max_messages: 3 } });
      const countedIds = (
        await publish(
          counted,
          Array.from({ length: 10 }, (_, i) => ({ value: i })),
        )
      ).map((m) => m.id);
      // A dead letter of a message retention removes goes with it; one of a kept message stays.
      const [expiring, kept] = [countedIds[0] as string, countedIds[9] as string];
      const db = tk.kernel.database.knex;
      for (const id of [expiring, kept]) {
        await db('streams_deliveries').insert({
          tenant_id: 'default',
          message_id: id,
          workflow: 'retained',
          revision: 1,
          run_id: `run-${id}`,
          attempt: 1,
          status: 'dead',
          error: 'boom',
          outputs: '[]',
          at: new Date(),
        });
        await db('streams_dead_letters').insert({
          tenant_id: 'default',
          workflow: 'retained',
          message_id: id,
          at: new Date(),
        });
      }
      const aged = await createStream({ retention: { max_age_hours: 1 } });
      await publish(aged, [{ value: 'old-1' }, { value: 'old-2' }]);
      advance(2 * 3600);
      await publish(aged, [{ value: 'new' }]);
      const deadline = Date.now() + 60_000;
      let counts: number[] = [];
      while (Date.now() < deadline) {
        tk.kernel.services.jobs.trigger('streams.retention');
        counts = [(await readAll(counted)).length, (await readAll(aged)).length];
        if (counts[0] === 3 && counts[1] === 1) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await readAll(counted)).map((m) => m.value)).to.deep.equal([7, 8, 9]);
      expect(
        await db('streams_dead_letters').where({ tenant_id: 'default', workflow: 'retained' }).pluck('message_id'),
      ).to.deep.equal([kept]);
      expect((await readAll(aged)).map((m) => m.value)).to.deep.equal(['new']);
    });

    it("removes a deleted stream's messages with their deliveries and open dead letters, in the retention job", async () => {
      const doomed = await createStream();
      const [message] = (await publish(doomed, [{ value: 'doomed' }])).map((m) => m.id) as [string];
      const db = tk.kernel.database.knex;
      await db('streams_deliveries').insert({
        tenant_id: 'default',
        message_id: message,
        workflow: 'doomed',
        revision: 1,
        run_id: `run-${message}`,
        attempt: 1,
        status: 'dead',
        error: 'boom',
        outputs: '[]',
        at: new Date(),
      });
      await db('streams_dead_letters').insert({
        tenant_id: 'default',
        workflow: 'doomed',
        message_id: message,
        at: new Date(),
      });
      expect((await tk.request('DELETE', `/streams/${doomed}`)).status).to.equal(204);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (await db('streams_discarded')).length > 0) {
        tk.kernel.services.jobs.trigger('streams.retention');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await db('streams_deliveries').where({ tenant_id: 'default', message_id: message })).to.deep.equal([]);
      expect(await db('streams_dead_letters').where({ tenant_id: 'default', message_id: message })).to.deep.equal([]);
    });

    it('keeps consumer offsets per consumer and partition, and shows the lag', async () => {
      const stream = await createStream({ partitions: 2 });
      const sent = await publish(
        stream,
        Array.from({ length: 12 }, (_, i) => ({ key: i < 8 ? 'left' : 'right', value: i })),
      );
      const left = sent.filter((_, i) => i < 8);
      const right = sent.filter((_, i) => i >= 8);
      const leftPartition = (left[0] as { partition: number }).partition;
      const rightPartition = (right[0] as { partition: number }).partition;
      expect(leftPartition).to.not.equal(rightPartition);
      const commit = await tk.request('POST', `/streams/${stream}/consumers/wf-a/offsets`, {
        body: {
          offsets: [
            { partition: leftPartition, offset: (left[5] as { offset: number }).offset },
            { partition: rightPartition, offset: (right[3] as { offset: number }).offset + 1 },
          ],
        },
      });
      expect(commit.status, commit.text).to.equal(200);
      await tk.request('POST', `/streams/${stream}/consumers/wf-b/offsets`, {
        body: { offsets: [{ partition: leftPartition, offset: (left[0] as { offset: number }).offset }] },
      });
      const res = await tk.request('GET', `/streams/${stream}/consumers`);
      expect(res.status).to.equal(200);
      const lag = Object.fromEntries(res.body.items.map((c: any) => [`${c.consumer}/${c.partition}`, c.lag]));
      expect(lag).to.deep.equal({
        [`wf-a/${leftPartition}`]: 3,
        [`wf-a/${rightPartition}`]: 0,
        [`wf-b/${leftPartition}`]: 8,
      });
      await publish(stream, [{ key: 'right', value: 'more' }]);
      const after = await tk.request('GET', `/streams/${stream}/consumers`);
      expect(after.body.items.find((c: any) => c.consumer === 'wf-a' && c.partition === rightPartition).lag).to.equal(
        1,
      );
    });

    it('keeps tenants apart: the same stream id in two tenants, and no reach into another tenant', async () => {
      const id = `shared-${Math.random().toString(36).slice(2, 8)}`;
      for (const tenant of ['tenant-a', 'tenant-b']) {
        const res = await tk.request('POST', '/streams', { body: { id, name: id, tenant_id: tenant } });
        expect(res.status).to.equal(201);
      }
      const [a] = await publish(id, [{ value: 'a' }], {}, 'tenant-a');
      await publish(id, [{ value: 'b1' }, { value: 'b2' }], {}, 'tenant-b');
      expect((await readAll(id, '', 'tenant-a')).map((m) => m.value)).to.deep.equal(['a']);
      expect((await readAll(id, '', 'tenant-b')).map((m) => m.value)).to.deep.equal(['b1', 'b2']);
      expect((await tk.request('GET', `/messages/${a?.id}?tenant_id=tenant-b`)).status).to.equal(404);
      expect((await tk.request('GET', `/messages/${a?.id}?tenant_id=tenant-a`)).status).to.equal(200);
      const listed = await tk.request('GET', `/messages?tenant_id=tenant-b&stream=${id}`);
      expect(listed.body.items.map((m: any) => m.value)).to.deep.equal(['b1', 'b2']);
      const missing = await tk.request('POST', `/streams/only-in-a-${counter}/messages`, {
        body: { messages: [{ value: 1 }], tenant_id: 'tenant-b' },
      });
      expect(missing.status).to.equal(404);
    });

    it('pages while others publish: every message that existed before paging began is seen exactly once', async () => {
      const stream = await createStream({ partitions: 3 });
      const before: string[] = [];
      for (let b = 0; b < 3; b++)
        before.push(
          ...(
            await publish(
              stream,
              Array.from({ length: 100 }, (_, i) => ({ key: `k${i % 7}`, value: b * 100 + i })),
            )
          ).map((m) => m.id),
        );
      const seen: string[] = [];
      let cursor: string | null = null;
      let publishing = true;
      const publishers = (async () => {
        for (let round = 0; publishing && round < 40; round++)
          await publish(
            stream,
            Array.from({ length: 10 }, (_, i) => ({ key: `k${i % 7}`, value: -1 })),
          );
      })();
      do {
        const res = await tk.request(
          'GET',
          `/streams/${stream}/messages?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status).to.equal(200);
        seen.push(...res.body.items.map((m: any) => m.id));
        cursor = res.headers.get('x-next-cursor');
      } while (cursor);
      publishing = false;
      await publishers;
      expect(new Set(seen).size, 'no message seen twice').to.equal(seen.length);
      const seenSet = new Set(seen);
      expect(before.filter((id) => !seenSet.has(id))).to.deep.equal([]);
    });
  });
}
