import { movableClock } from '../../support/identity.js';
import { startKernel } from '../../support/kernel.js';
import { streamConformance } from './conformance.js';
import { NATS_URL, dropJetStreams } from './nats-support.js';

streamConformance('nats (JetStream)', {
  denseOffsets: false,
  async boot() {
    const { clock, advance } = movableClock();
    const tk = await startKernel(
      {
        plugins: ['system', 'audit', 'streams'],
        auth: { mode: 'none' },
        settings: { streams: { backend: 'nats', nats: { url: NATS_URL } } },
      },
      { clock },
    );
    const close = tk.close.bind(tk);
    tk.close = async () => {
      await dropJetStreams(tk);
      await close();
    };
    return { tk, advance };
  },
});
