import { expect } from 'chai';
import type { TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { makeComponent, makeStream, runtimeKernel, start, unique, waitForState } from './helpers.js';

/**
 * A source that cannot start backs off as documented — 1 s after the first failure, then 2 s, 4 s…
 * at most a minute apart — not at the supervisor's polling interval, and its status says when the
 * next attempt is due.
 */
describe('a failing source backs off 1 s doubling and shows its next attempt', function () {
  this.timeout(60_000);
  let tk: TestKernel;
  before(async () => {
    tk = await runtimeKernel();
  });
  after(() => tk?.close());

  it('retries at 1 s, 2 s, 4 s (not the 200 ms interval) with next_attempt_at in its status and each failure in /logs', async () => {
    const stream = unique('backoff');
    await makeStream(tk, stream);
    // Nothing listens on port 1: every start fails at once with the broker's error.
    const source = await makeComponent(tk, {
      name: unique('backoff-src'),
      type: 'amqp.consume',
      stream,
      config: { url: 'amqp://guest:guest@127.0.0.1:1', queue: unique('q') },
    });
    await start(tk, source.id);
    const failed = await waitForState(tk, source.id, 'failed');
    expect(failed.last_error).to.be.a('string').and.not.equal('');
    const next = Date.parse((failed as { next_attempt_at?: string }).next_attempt_at ?? '');
    expect(next, 'the status shows the next attempt').to.be.greaterThan(Date.parse(failed.since));

    const failures = await until(
      async () => {
        const res = await tk.request('GET', `/logs?source=components&level=error&limit=1000`);
        const mine = (res.body.items as any[]).filter(
          (l) => l.fields?.component === source.id && String(l.message).startsWith('source failed'),
        );
        return mine.length >= 4 && mine;
      },
      40_000,
      { what: 'four failed attempts logged' },
    );
    const times = failures
      .map((l: any) => Date.parse(l.at ?? l.time ?? l.created_at))
      .sort((a: number, b: number) => a - b);
    const gaps = times.slice(1, 4).map((t: number, i: number) => t - (times[i] as number));
    expect(gaps[0], 'first retry after ~1 s').to.be.within(800, 2000);
    expect(gaps[1], 'then ~2 s').to.be.within(1800, 3500);
    expect(gaps[2], 'then ~4 s').to.be.within(3700, 6000);
    for (const l of failures) expect(l.fields.next_attempt_at).to.be.a('string');
    await tk.request('POST', `/components/${source.id}/stop`, { body: {} });
  });
});
