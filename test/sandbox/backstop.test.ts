import { expect } from 'chai';
import type { SandboxIncident } from '../../sandbox/index.js';
import type { Sandbox } from '../../sandbox/types.js';
import { job, newSandbox, timed, whileTicking } from './helpers.js';

const DEADLINE = 400;
const MARGIN = 300;

describe('sandbox: the host backstop', function () {
  this.timeout(120_000);

  describe("with the interpreter's interrupt handler turned off (only the backstop can stop a script)", () => {
    let sandbox: Sandbox;
    const incidents: SandboxIncident[] = [];
    before(() => {
      sandbox = newSandbox({
        poolSize: 1,
        interruptHandler: false,
        backstopMarginMs: MARGIN,
        limits: { deadline_ms: DEADLINE },
        onIncident: (incident) => incidents.push(incident),
      });
    });
    after(() => sandbox.close());

    it('terminates the worker once the deadline passed by the margin, answers deadline, and the host keeps ticking', async () => {
      const { value, longestGapMs } = await whileTicking(() => timed(sandbox, job('while (true) {}')));
      expect(value.result.ok).to.equal(false);
      expect(value.result.error).to.deep.equal({
        message: `the script ran past its deadline of ${DEADLINE} ms`,
        limit: 'deadline',
      });
      expect(value.ms)
        .to.be.at.least(DEADLINE + MARGIN - 20)
        .and.below(DEADLINE + MARGIN + 3000);
      expect(longestGapMs).to.be.below(DEADLINE);
      expect(incidents).to.have.length(1);
      expect(incidents[0]).to.deep.include({ kind: 'backstop', tenantId: 'tenant-a' });
      expect(incidents[0]?.message).to.match(/^worker terminated \d+ ms into a run with a 400 ms deadline$/);
    });

    it('replaces the worker: the next runs work, one after the other', async () => {
      for (let i = 0; i < 3; i++) {
        const r = await sandbox.run(job(`result = ${i} + 1;`));
        expect(r).to.deep.include({ ok: true, result: i + 1 });
      }
    });

    it('queued runs wait for the replacement instead of failing', async () => {
      const [stuck, queued] = await Promise.all([
        sandbox.run(job('while (true) {}')),
        sandbox.run(job('result = "after";')),
      ]);
      expect(stuck.error?.limit).to.equal('deadline');
      expect(queued).to.deep.include({ ok: true, result: 'after' });
    });
  });

  describe('with the interrupt handler on, for work inside one long native call', () => {
    let sandbox: Sandbox;
    before(() => {
      sandbox = newSandbox({ poolSize: 1, backstopMarginMs: MARGIN, limits: { deadline_ms: DEADLINE } });
    });
    after(() => sandbox.close());

    it('stops JSON.stringify of a deeply nested array (no interrupt check inside it) at the backstop', async () => {
      const script = 'let o = [];\nfor (let i = 0; i < 100000; i++) o = [o];\nresult = JSON.stringify(o).length;';
      const { value, longestGapMs } = await whileTicking(() => timed(sandbox, job(script)));
      expect(value.result.ok).to.equal(false);
      expect(value.result.error?.limit).to.be.oneOf(['deadline', 'stack']);
      expect(value.ms).to.be.below(DEADLINE + MARGIN + 3000);
      expect(longestGapMs).to.be.below(DEADLINE);
      expect(await sandbox.run(job('result = 2;'))).to.deep.include({ ok: true, result: 2 });
    });
  });

  describe('closing', () => {
    it('answers a run in progress and queued runs ok:false, and refuses new ones', async () => {
      const sandbox = newSandbox({ poolSize: 1 });
      const running = sandbox.run(job('while (true) {}'));
      const queued = sandbox.run(job('result = 1;'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sandbox.close();
      const [r1, r2] = await Promise.all([running, queued]);
      expect(r1.ok).to.equal(false);
      expect(r2.ok).to.equal(false);
      let refused: unknown;
      await sandbox.run(job('result = 1;')).catch((err: unknown) => {
        refused = err;
      });
      expect(String(refused)).to.match(/closed/);
    });
  });
});
