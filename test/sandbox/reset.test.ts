import { expect } from 'chai';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { Session } from '../../sandbox/evaluate.js';
import { DEFAULT_LIMITS } from '../../sandbox/limits.js';
import { MemorySnapshot } from '../../sandbox/snapshot.js';
import type { Sandbox, SandboxJob } from '../../sandbox/types.js';
import type { SandboxIncident } from '../../sandbox/pool.js';
import { job, newSandbox } from './helpers.js';

interface WasmMemory {
  buffer: ArrayBuffer;
}

/** A session built in this thread over a memory of its own, with the snapshot a worker takes. */
async function resettableSession(): Promise<{ session: Session; snapshot: MemorySnapshot; memory: WasmMemory }> {
  const memory = new (
    globalThis as unknown as { WebAssembly: { Memory: new (d: object) => WasmMemory } }
  ).WebAssembly.Memory({
    initial: 256,
    maximum: 1024,
  });
  const quickjs = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory as never }));
  const session = new Session(quickjs, { interruptHandler: true });
  const snapshot = MemorySnapshot.of(quickjs, memory);
  return { session, snapshot, memory };
}

const run = (session: Session, j: SandboxJob) => session.run(j, { ...DEFAULT_LIMITS, deadline_ms: 300 });

describe('sandbox: a session reset to its snapshot after every run', function () {
  this.timeout(60_000);

  it('copies back a few hundred KiB, not the memory (the stack is left out), and restores those bytes exactly', async () => {
    const { session, snapshot, memory } = await resettableSession();
    const copied = snapshot.spans.reduce((sum, [start, end]) => sum + end - start, 0);
    expect(copied).to.be.below(1024 * 1024);
    expect(snapshot.spans).to.have.length(2);
    const before = new Uint8Array(memory.buffer).slice();
    const littered = run(
      session,
      job('globalThis.big = new Array(200000).fill("x".repeat(20)); Object.prototype.polluted = 1; result = 1;'),
    );
    expect(littered.ok).to.equal(true);
    snapshot.restore();
    const after = new Uint8Array(memory.buffer);
    for (const [start, end] of snapshot.spans) {
      const changed = after.subarray(start, end).findIndex((byte, i) => byte !== before[start + i]);
      expect(changed, `a byte of [${start}, ${end}) not restored`).to.equal(-1);
    }
    // The run did write outside those spans (its heap grew past the fresh top): junk the allocator overwrites.
    expect(after.findIndex((byte, i) => byte !== before[i])).to.be.at.least(0);
    const probe = run(session, job('result = [typeof big, ({}).polluted === undefined];'));
    expect(probe.result).to.deep.equal(['undefined', true]);
  });

  it('answers like a fresh session for every kind of run, hundreds of runs in a row', async () => {
    const { session, snapshot } = await resettableSession();
    const cases: Array<[SandboxJob, (r: ReturnType<Session['run']>) => void]> = [
      [job('let n = 0; for (let i = 0; i < 1000; i++) n += i; result = n;'), (r) => expect(r.result).to.equal(499500)],
      [job('throw new Error("boom")'), (r) => expect(r.error?.message).to.match(/boom/)],
      // (The stack limit is left to the pool's tests: this thread's native stack is not sized for it.)
      [
        job({ 'main.js': 'import { v } from "./lib.js"; result = v;', 'lib.js': 'export const v = 7;' }),
        (r) => expect(r.result).to.equal(7),
      ],
      [job('import "./missing.js";'), (r) => expect(r.error?.message).to.match(/missing\.js/)],
      [job('result = await new Promise(() => {});'), (r) => expect(r.ok).to.equal(false)],
      [job('service.route.push({ a: 1 }); console.log("hi"); result = 2;'), (r) => expect(r.pushed).to.have.length(1)],
    ];
    for (let round = 0; round < 40; round++) {
      for (const [j, check] of cases) {
        check(run(session, j));
        snapshot.restore();
      }
      // A runaway stopped at its deadline, a few times among the others (each waits out the deadline).
      if (round % 15 === 0) {
        expect(run(session, job('while (true) {}')).error?.limit).to.equal('deadline');
        snapshot.restore();
      }
    }
  });

  it("gives each run Math.random numbers of its own (QuickJS's seed is part of the snapshot)", async () => {
    const { session, snapshot } = await resettableSession();
    const draws = new Set<unknown>();
    for (let i = 0; i < 20; i++) {
      draws.add(run(session, job('result = Math.random();')).result);
      snapshot.restore();
    }
    expect(draws.size).to.equal(20);
    for (const value of draws) expect(value).to.be.a('number').within(0, 1);
  });

  describe('in the pool', () => {
    let sandbox: Sandbox;
    const incidents: SandboxIncident[] = [];
    before(() => {
      sandbox = newSandbox({ poolSize: 1, backstopMarginMs: 5000, onIncident: (i) => incidents.push(i) });
    });
    after(() => sandbox.close());

    it("still stops a runaway script with the interpreter's interrupt handler after many runs (not the backstop)", async () => {
      for (let i = 0; i < 50; i++) expect((await sandbox.run(job(`result = ${i};`))).result).to.equal(i);
      const started = performance.now();
      const stuck = await sandbox.run(job('while (true) {}', { limits: { deadline_ms: 200 } }));
      expect(stuck.error?.limit).to.equal('deadline');
      expect(performance.now() - started).to.be.below(2000);
      expect(incidents).to.deep.equal([]);
      expect((await sandbox.run(job('result = "after";'))).result).to.equal('after');
    });
  });
});
