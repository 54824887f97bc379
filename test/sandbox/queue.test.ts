import { expect } from 'chai';
import type { SandboxIncident } from '../../sandbox/pool.js';
import type { Sandbox } from '../../sandbox/types.js';
import { job, newSandbox } from './helpers.js';

describe('sandbox: many runs queued at once (sent to the workers several at a time)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  const incidents: SandboxIncident[] = [];
  before(() => {
    sandbox = newSandbox({ poolSize: 2, backstopMarginMs: 300, onIncident: (i) => incidents.push(i) });
  });
  after(() => sandbox.close());
  beforeEach(() => incidents.splice(0));

  it('answers each run with its own result, tenants mixed', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        sandbox.run(
          job(`globalThis.mine = ${i}; result = [globalThis.mine, typeof other];`, { tenantId: `t${i % 7}` }),
        ),
      ),
    );
    expect(results.map((r) => r.result)).to.deep.equal(Array.from({ length: 200 }, (_, i) => [i, 'undefined']));
  });

  it('a runaway run among them ends at its deadline alone; the runs queued behind it on its worker still run', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        sandbox.run(job(i === 5 ? 'while (true) {}' : `result = ${i};`, { limits: { deadline_ms: 200 } })),
      ),
    );
    expect(results[5]?.error?.limit).to.equal('deadline');
    expect(results.filter((_, i) => i !== 5).map((r) => r.result)).to.deep.equal(
      Array.from({ length: 40 }, (_, i) => i).filter((i) => i !== 5),
    );
    expect(incidents).to.deep.equal([]);
  });

  it('a run only the backstop can stop fails alone: the runs sent with it go to the replacement worker', async () => {
    // Without the interrupt handler (a test-only option) nothing but the host's backstop stops a loop.
    const seen: SandboxIncident[] = [];
    const unguarded = newSandbox({
      poolSize: 2,
      interruptHandler: false,
      backstopMarginMs: 200,
      onIncident: (i) => seen.push(i),
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          unguarded.run(job(i === 3 ? 'while (true) {}' : `result = ${i};`, { limits: { deadline_ms: 100 } })),
        ),
      );
      expect(results[3]?.error?.limit).to.equal('deadline');
      expect(results.filter((_, i) => i !== 3).map((r) => r.result)).to.deep.equal(
        Array.from({ length: 30 }, (_, i) => i).filter((i) => i !== 3),
      );
      expect(seen.map((i) => i.kind)).to.deep.equal(['backstop']);
    } finally {
      await unguarded.close();
    }
  });

  it('a job that cannot be sent fails alone; the others sent with it run', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sandbox.run(
          job('result = typeof bad === "undefined" ? "fine" : "bad";', i === 7 ? { globals: { bad: () => 1 } } : {}),
        ),
      ),
    );
    expect(results[7]?.error?.message).to.match(/cannot be sent/);
    expect(results.filter((_, i) => i !== 7).every((r) => r.result === 'fine')).to.equal(true);
  });
});
