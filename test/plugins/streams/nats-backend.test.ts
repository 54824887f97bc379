import { connect } from 'nats';
import { movableClock } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { jetStreamName } from '../../../plugins/streams/nats-backend.js';
import { streamConformance } from './conformance.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Deletes the JetStream streams this kernel made, so test runs do not pile up on the server. */
async function dropJetStreams(tk: TestKernel): Promise<void> {
  const streams = (await tk.kernel.database.knex('streams_streams').select('tenant_id', 'uid')) as Array<{ tenant_id: string; uid: string }>;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const s of streams) await jsm.streams.delete(jetStreamName({ tenantId: s.tenant_id, uid: s.uid })).catch(() => undefined);
  await nc.drain();
}

streamConformance('nats (JetStream)', {
  denseOffsets: false,
  async boot() {
    const { clock, advance } = movableClock();
    const tk = await startKernel({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' }, settings: { streams: { backend: 'nats', nats: { url: NATS_URL } } } }, { clock });
    const close = tk.close.bind(tk);
    tk.close = async () => {
      await dropJetStreams(tk);
      await close();
    };
    return { tk, advance };
  },
});
