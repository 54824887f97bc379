import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { onPostgres, type TestKernel } from '../../support/kernel.js';
import { makeComponent, makeStream, messagesOf, runtimeKernel, start, unique, waitForState } from './helpers.js';
import { until } from '../../support/poll.js';

/** Every tick's period (x-tick-at), checking that no period was appended twice. */
function periodsOf(messages: any[]): number[] {
  const periods = messages.map((m) => Date.parse(m.headers['x-tick-at']));
  expect(new Set(periods).size, 'a period ticked twice').to.equal(periods.length);
  return periods.sort((a, b) => a - b);
}

describe('connectors: timer source', function () {
  this.timeout(120_000);

  it('appends one message per period, aligned to the clock, with its payload', async () => {
    const tk = await runtimeKernel();
    try {
      const stream = unique('ticks');
      await makeStream(tk, stream);
      const c = await makeComponent(tk, {
        name: unique('timer'),
        type: 'timer',
        stream,
        config: { every_seconds: 1, payload: { hello: 'tick' } },
      });
      await start(tk, c.id);
      await waitForState(tk, c.id, 'running');
      const messages = await until(
        async () => {
          const found = await messagesOf(tk, stream);
          return found.length >= 4 ? found : undefined;
        },
        30_000,
        { what: 'four ticks' },
      );
      const periods = periodsOf(messages);
      for (const p of periods) expect(p % 1000).to.equal(0);
      for (let i = 1; i < periods.length; i++) expect(periods[i]! - periods[i - 1]!).to.equal(1000);
      expect(messages[0].value).to.deep.equal({ hello: 'tick' });
    } finally {
      await tk.close();
    }
  });

  it('refuses a config with neither every_seconds nor cron, or a bad cron expression (400 naming the field)', async () => {
    const tk = await runtimeKernel();
    try {
      const stream = unique('ticks');
      await makeStream(tk, stream);
      const res = await tk.request('POST', '/components', {
        body: { name: 'bad timer', type: 'timer', stream, config: { payload: 1 } },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.details[0].pointer).to.match(/^\/config/);
      const zero = await tk.request('POST', '/components', {
        body: { name: 'zero timer', type: 'timer', stream, config: { every_seconds: 0 } },
      });
      expect(zero.status).to.equal(400);
      expect(zero.body.error.details.map((d: any) => d.pointer)).to.include('/config/every_seconds');
      const badCron = await tk.request('POST', '/components', {
        body: { name: 'bad cron', type: 'timer', stream, config: { cron: 'every tuesday-ish' } },
      });
      expect(badCron.status).to.equal(400);
      expect(badCron.body.error.details[0].pointer).to.equal('/config/cron');
      const cron = await tk.request('POST', '/components', {
        body: { name: 'cron timer', type: 'timer', stream, config: { cron: '*/5 * * * *' } },
      });
      expect(cron.status, cron.text).to.equal(201);
    } finally {
      await tk.close();
    }
  });

  (onPostgres ? it : it.skip)(
    'ticks exactly once per period with two kernels on one PostgreSQL; stops through the other instance; survives a takeover',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const a = await runtimeKernel({}, { schema });
      let b: TestKernel | undefined = await runtimeKernel({}, { schema });
      try {
        const stream = unique('ticks2');
        await makeStream(a, stream);
        const c = await makeComponent(a, {
          name: unique('timer2'),
          type: 'timer',
          stream,
          config: { every_seconds: 1 },
        });
        await start(a, c.id);
        await waitForState(a, c.id, 'running');
        await until(async () => (await messagesOf(a, stream)).length >= 5, 30_000, { what: 'five ticks' });
        const lease = await a.kernel.database
          .knex('kernel_leases')
          .where({ name: 'components.sources', key: `default/${c.id}` })
          .first();
        const holderIsA = lease.holder === a.kernel.services.jobs.leases.holder;
        expect(holderIsA || lease.holder === b.kernel.services.jobs.leases.holder).to.equal(true);
        const reader = holderIsA ? b : a;
        // Stop through the instance that does not run it: the holder stops ticking (the event reaches it).
        const stopped = await reader.request('POST', `/components/${c.id}/stop`, { body: {} });
        expect(stopped.status).to.equal(200);
        await new Promise((r) => setTimeout(r, 1500)); // a tick already committing may still land
        const afterStop = (await messagesOf(a, stream)).length;
        await new Promise((r) => setTimeout(r, 2500));
        expect((await messagesOf(a, stream)).length, 'ticks after stop').to.equal(afterStop);
        await start(reader, c.id);
        await waitForState(reader, c.id, 'running');
        // Close whichever kernel holds it now; the other takes it over (a clean shutdown releases the lease).
        const again = await a.kernel.database
          .knex('kernel_leases')
          .where({ name: 'components.sources', key: `default/${c.id}` })
          .first();
        const nowOnA = again.holder === a.kernel.services.jobs.leases.holder;
        const survivor = nowOnA ? b : a;
        const before = (await messagesOf(a, stream)).length;
        if (nowOnA) await a.close();
        else {
          await b.close();
          b = undefined;
        }
        await until(async () => (await messagesOf(survivor, stream)).length >= before + 4, 60_000, {
          what: 'ticks after the takeover',
        });
        const taken = await survivor.kernel.database
          .knex('kernel_leases')
          .where({ name: 'components.sources', key: `default/${c.id}` })
          .first();
        expect(taken.holder).to.equal(survivor.kernel.services.jobs.leases.holder);
        const periods = periodsOf(await messagesOf(survivor, stream));
        // One message per period: consecutive periods differ by one second, apart from periods no one held the lease for.
        for (let i = 1; i < periods.length; i++) expect(periods[i]! - periods[i - 1]!).to.be.at.least(1000);
        expect(periods.length).to.be.at.least(before + 4);
      } finally {
        // The schema is shared, so the test drops it, through a connection of its own.
        const knex = (await import('knex')).default({ client: 'pg', connection: process.env.DATABASE_URL as string });
        await b?.close().catch(() => undefined);
        await a.close().catch(() => undefined);
        await knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
        await knex.destroy();
      }
    },
  );
});
