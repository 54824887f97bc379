import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { createStream, deploy, publish } from './support.js';

/**
 * A batch that went through and writes no stream sink commits as one statement (worker/
 * commit-combined.ts): the lease fence, the runs, the deliveries, the offset and the hourly
 * counters together. What it records is what the transaction records; a batch that failed, or
 * that follows a failure (a retry row to clear), takes the transaction as before.
 */
describe('workflows: a batch committed as one statement', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const db = () => tk.kernel.database.knex;
  const statements: string[] = [];
  const record = (query: { sql: string }) => void statements.push(query.sql);

  before(async () => {
    tk = await startKernel({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'dashboard'],
      auth: { mode: 'none' },
      log: { level: 'error' },
      settings: { workflows: { poll_ms: 50, lease_ms: 3000 } },
    });
    db().on('query', record);
  });
  after(async () => {
    db().off('query', record);
    await tk?.close();
  });

  it('records the runs, one first-attempt delivery each, the offset and the hourly counters in one statement per batch', async () => {
    await createStream(tk, 'one-in');
    const body = {
      id: 'one-statement',
      name: 'One statement',
      input: { stream: 'one-in' },
      steps: [
        {
          type: 'script',
          config: { source: 'const v = service.json.decode(input.body); if (v.n % 3 !== 0) service.route.push(v);' },
        },
      ],
      sinks: [{ type: 'log', config: {} }],
      batch_size: 10,
    };
    expect((await tk.request('POST', '/workflows', { body })).status).to.equal(201);
    await deploy(tk, 'one-statement', 'one-statement-deploy');
    const ids = await publish(
      tk,
      'one-in',
      Array.from({ length: 25 }, (_, n) => ({ value: { n } })),
    );
    const committed = async () =>
      (await tk.request('GET', '/streams/one-in/consumers')).body.items.find((c: any) => c.consumer === 'one-statement')
        ?.committed_offset;
    await until(async () => (await committed()) === 25, 60_000, { what: 'all 25 committed' });

    expect(statements.some((sql) => /^WITH lease_fence_\d+ AS/.test(sql) && sql.includes('offset_moved_'))).to.equal(
      true,
    );
    const runs = (await db()('workflows_runs')
      .where({ workflow_id: 'one-statement' })
      .select('message_id', 'status', 'attempts')) as Array<{ message_id: string; status: string; attempts: number }>;
    expect(new Map(runs.map((r) => [r.message_id, [r.status, r.attempts]]))).to.deep.equal(
      new Map(ids.map((id, n) => [id, [n % 3 === 0 ? 'filtered' : 'processed', 1]])),
    );
    const deliveries = (await db()('streams_deliveries')
      .where({ workflow: 'one-statement' })
      .select('message_id', 'attempt', 'status')) as Array<{ message_id: string; attempt: number; status: string }>;
    expect(deliveries).to.have.length(25);
    expect(deliveries.every((d) => d.attempt === 1)).to.equal(true);
    const hourly = (await db()('workflows_hourly')
      .where({ workflow_id: 'one-statement' })
      .select(db().raw('sum(messages_in)::int AS messages_in, sum(processed)::int AS processed'))) as Array<{
      messages_in: number;
      processed: number;
    }>;
    expect(hourly[0]).to.deep.equal({ messages_in: 25, processed: 16 });
  });

  it('a failed message and the batch after it take the transaction: retried, then dead, and the rest goes through once', async () => {
    await createStream(tk, 'two-in');
    const body = {
      id: 'after-failure',
      name: 'After a failure',
      input: { stream: 'two-in' },
      steps: [
        {
          type: 'script',
          config: { source: "const v = service.json.decode(input.body); if (v.poison) throw new Error('poison');" },
        },
      ],
      sinks: [{ type: 'log', config: {} }],
      on_error: { max_attempts: 2, backoff_ms: 20 },
    };
    expect((await tk.request('POST', '/workflows', { body })).status).to.equal(201);
    await deploy(tk, 'after-failure', 'after-failure-deploy');
    const ids = await publish(tk, 'two-in', [{ value: { n: 0 } }, { value: { poison: true } }, { value: { n: 2 } }]);
    const deliveries = async () =>
      (await db()('streams_deliveries')
        .where({ workflow: 'after-failure' })
        .orderBy(['message_id', 'attempt'])
        .select('message_id', 'attempt', 'status')) as Array<{ message_id: string; attempt: number; status: string }>;
    await until(async () => (await deliveries()).length === 4, 60_000, { what: 'four attempts recorded' });
    const byMessage = new Map<string, string[]>();
    for (const d of await deliveries()) byMessage.set(d.message_id, [...(byMessage.get(d.message_id) ?? []), d.status]);
    expect(byMessage).to.deep.equal(
      new Map([
        [ids[0], ['filtered']],
        [ids[1], ['failed', 'dead']],
        [ids[2], ['filtered']],
      ]),
    );
    const retries = await db()('workflows_retries').where({ workflow_id: 'after-failure' });
    expect(retries).to.deep.equal([]);
  });
});
