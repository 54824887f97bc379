import { expect } from 'chai';
import { BOOT_PHASES } from '../../../kernel/boot/phases.js';
import { startKernel } from '../../support/kernel.js';

/** The boot's timer marks exactly the phases of kernel/boot/phases.ts, in their order. */
describe('boot: timings name the phases of BOOT_PHASES', function () {
  this.timeout(120_000);

  it('times every phase once a kernel listens, and no other', async () => {
    const tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } });
    try {
      const names = BOOT_PHASES.map((phase) => phase.name);
      const timed = Object.keys(tk.kernel.bootTimings);
      // A PostgreSQL server connects first, before the plugins resolve; the embedded database in
      // the list's order.
      const expected = process.env.DATABASE_URL
        ? ['modules', 'connect', ...names.filter((n) => n !== 'modules' && n !== 'connect')]
        : names;
      expect(timed).to.deep.equal(expected);
      expect(Object.keys(tk.kernel.bootCpuTimings)).to.deep.equal(expected);
    } finally {
      await tk.close();
    }
  });
});
