import { expect } from 'chai';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';

describe('messages: read, replay and redrive', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  const db = () => tk.kernel.database.knex;

  async function auditRecords(res: HttpResult): Promise<any[]> {
    return db()('audit_records').where({ request_id: res.headers.get('x-request-id') });
  }

  async function stream(id: string, partitions = 1): Promise<void> {
    const res = await tk.request('POST', '/streams', { body: { id, name: id, partitions } });
    expect(res.status, res.text).to.equal(201);
  }

  async function publish(id: string, messages: unknown[]): Promise<string[]> {
    const res = await tk.request('POST', `/streams/${id}/messages`, { body: { messages } });
    expect(res.status, res.text).to.equal(201);
    return res.body.messages.map((m: any) => m.id);
  }

  async function deliver(messageId: string, workflow: string, attempts: string[]): Promise<void> {
    let at = Date.parse('2026-01-01T00:00:00Z');
    for (const [i, status] of attempts.entries()) {
      await db()('streams_deliveries').insert({
        tenant_id: 'default',
        message_id: messageId,
        workflow,
        revision: 1,
        run_id: `run-${messageId}-${i}`,
        attempt: i + 1,
        status,
        error: status === 'processed' ? null : 'boom',
        outputs: '[]',
        at: new Date((at += 1000)),
      });
    }
    // What recording the deliveries keeps alongside (workflow-streams.ts): the open dead letter.
    if (attempts.at(-1) === 'dead')
      await db()('streams_dead_letters').insert({
        tenant_id: 'default',
        workflow,
        message_id: messageId,
        at: new Date(at),
      });
  }

  async function rowsOf(messageId: string): Promise<{ message: any; deliveries: any[] }> {
    return {
      message: await db()('streams_messages').where({ tenant_id: 'default', id: messageId }).first(),
      deliveries: await db()('streams_deliveries')
        .where({ tenant_id: 'default', message_id: messageId })
        .orderBy(['workflow', 'attempt']),
    };
  }

  it('replays a message as a new one with the same body, key and headers plus x-replay-of, leaving the original and its deliveries as they were', async () => {
    await stream('orders', 4);
    const [original] = await publish('orders', [{ key: 'o-1', headers: { source: 'shop' }, value: { total: 7 } }]);
    await deliver(original as string, 'billing', ['failed', 'dead']);
    const before = await rowsOf(original as string);

    const res = await tk.request('POST', `/messages/${original}/replay`, { body: { request_id: 'replay-1' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ replay_of: original, stream: 'orders' });
    expect(res.body.id).to.not.equal(original);
    expect(await rowsOf(original as string)).to.deep.equal(before);
    expect(await auditRecords(res)).to.have.length(1);

    const replayed = await tk.request('GET', `/messages/${res.body.id}`);
    const first = await tk.request('GET', `/messages/${original}`);
    expect(replayed.body).to.include({
      key: 'o-1',
      partition: first.body.partition,
      replay_of: original,
      content_type: 'application/json',
    });
    expect(replayed.body.value).to.deep.equal({ total: 7 });
    expect(replayed.body.headers).to.deep.equal({ source: 'shop', 'x-replay-of': original });
    expect(replayed.body.deliveries).to.deep.equal([]);
    expect(first.body.deliveries.map((d: any) => [d.workflow, d.attempt, d.status])).to.deep.equal([
      ['billing', 1, 'failed'],
      ['billing', 2, 'dead'],
    ]);

    const again = await tk.request('POST', `/messages/${original}/replay`, { body: { request_id: 'replay-1' } });
    expect(again.body).to.deep.equal(res.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await db()('streams_messages').where({ tenant_id: 'default', replay_of: original })).to.have.length(1);
  });

  it('replays into another stream, and answers 404 for a missing message or target stream', async () => {
    await stream('orders-retry');
    const [original] = await publish('orders', [{ value: 'x' }]);
    const res = await tk.request('POST', `/messages/${original}/replay`, {
      body: { request_id: 'replay-2', target_stream: 'orders-retry' },
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ stream: 'orders-retry', partition: 0, offset: 0, replay_of: original });
    const missing = await tk.request('POST', `/messages/msg_nope/replay`, { body: { request_id: 'replay-3' } });
    expect(missing.status).to.equal(404);
    const noTarget = await tk.request('POST', `/messages/${original}/replay`, {
      body: { request_id: 'replay-4', target_stream: 'nowhere' },
    });
    expect(noTarget.status).to.equal(404);
    expect(await auditRecords(noTarget)).to.have.length(1);
  });

  it('filters messages by workflow status and redrives the dead ones as new messages, once per request_id', async () => {
    await stream('payments');
    const [dead, processed, deadElsewhere, retried] = await publish('payments', [
      { value: 1 },
      { value: 2 },
      { value: 3 },
      { value: 4 },
    ]);
    await deliver(dead as string, 'settle', ['failed', 'failed', 'dead']);
    await deliver(processed as string, 'settle', ['processed']);
    await deliver(deadElsewhere as string, 'notify', ['dead']);
    await deliver(retried as string, 'settle', ['dead', 'processed']);
    const before = await Promise.all([dead, processed, deadElsewhere, retried].map((id) => rowsOf(id as string)));

    const listed = await tk.request('GET', '/messages?workflow=settle&status=dead');
    expect(listed.body.items.map((m: any) => m.id)).to.deep.equal([dead]);
    const needsBoth = await tk.request('GET', '/messages?status=dead');
    expect(needsBoth.status).to.equal(400);

    const res = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'settle', status: 'dead', limit: 10, request_id: 'redrive-1' },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.replayed).to.equal(1);
    expect(res.body.messages[0]).to.include({ replay_of: dead, stream: 'payments', offset: 4 });
    expect(
      await Promise.all([dead, processed, deadElsewhere, retried].map((id) => rowsOf(id as string))),
    ).to.deep.equal(before);
    expect(await auditRecords(res)).to.have.length(1);
    const retry = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'settle', status: 'dead', limit: 10, request_id: 'redrive-1' },
    });
    expect(retry.body).to.deep.equal(res.body);
    expect(await db()('streams_messages').where({ tenant_id: 'default', replay_of: dead })).to.have.length(1);
    const bounded = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'notify', status: 'dead', limit: 1, request_id: 'redrive-2', since: '2000-01-01T00:00:00Z' },
    });
    expect(bounded.body.replayed).to.equal(1);

    // Redriven once: a second redrive (a new request) finds nothing left, and the list calls the
    // message redriven, with its replay, no longer dead.
    const again = await tk.request('POST', '/messages/redrive', {
      body: { workflow: 'settle', status: 'dead', limit: 10, request_id: 'redrive-3' },
    });
    expect(again.status, again.text).to.equal(200);
    expect(again.body).to.deep.equal({ replayed: 0, messages: [] });
    expect(await db()('streams_messages').where({ tenant_id: 'default', replay_of: dead })).to.have.length(1);
    expect((await tk.request('GET', '/messages?workflow=settle&status=dead')).body.items).to.deep.equal([]);
    const redriven = await tk.request('GET', '/messages?workflow=settle&status=redriven');
    expect(redriven.status, redriven.text).to.equal(200);
    expect(redriven.body.items.map((m: any) => [m.id, m.replays])).to.deep.equal([[dead, [res.body.messages[0].id]]]);
    const detail = await tk.request('GET', `/messages/${dead}`);
    expect(detail.body.replays).to.deep.equal([res.body.messages[0].id]);
  });

  it('lists messages across streams by time, and pages them by id', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    await stream('clicks');
    const ids = await publish(
      'clicks',
      Array.from({ length: 5 }, (_, i) => ({ value: i })),
    );
    const first = await tk.request('GET', `/messages?stream=clicks&since=${encodeURIComponent(from)}&limit=3`);
    expect(first.body.items.map((m: any) => m.id)).to.deep.equal(ids.slice(0, 3));
    const next = await tk.request(
      'GET',
      `/messages?stream=clicks&since=${encodeURIComponent(from)}&limit=3&cursor=${encodeURIComponent(first.headers.get('x-next-cursor') as string)}`,
    );
    expect(next.body.items.map((m: any) => m.id)).to.deep.equal(ids.slice(3));
    const none = await tk.request('GET', `/messages?stream=clicks&until=${encodeURIComponent(from)}`);
    expect(none.body.items).to.deep.equal([]);
    expect((await tk.request('GET', '/messages?stream=no-such-stream')).body.items).to.deep.equal([]);
  });

  it("hides a deleted stream's messages at once, and the retention job removes them", async () => {
    await stream('doomed');
    const [id] = await publish('doomed', [{ value: 1 }, { value: 2 }]);
    const del = await tk.request('DELETE', '/streams/doomed');
    expect(del.status).to.equal(204);
    expect(await auditRecords(del)).to.have.length(1);
    expect((await tk.request('GET', `/messages/${id}`)).status).to.equal(404);
    expect((await tk.request('GET', '/streams/doomed/messages')).status).to.equal(404);
    await stream('doomed');
    const reborn = await tk.request('POST', '/streams/doomed/messages', { body: { messages: [{ value: 'new' }] } });
    expect(reborn.body.messages[0].offset).to.equal(0);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (await db()('streams_discarded')).length > 0) {
      tk.kernel.services.jobs.trigger('streams.retention');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(
      await db()('streams_messages').where({ tenant_id: 'default', stream: 'doomed' }).select('offset'),
    ).to.have.length(1);
  });
});
