import { movableClock } from '../../support/identity.js';
import { startKernel } from '../../support/kernel.js';
import { streamConformance } from './conformance.js';

// PGlite by default; PostgreSQL when DATABASE_URL is set.
streamConformance('postgres', {
  denseOffsets: true,
  async boot() {
    const { clock, advance } = movableClock();
    const tk = await startKernel({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' } }, { clock });
    return { tk, advance };
  },
});
