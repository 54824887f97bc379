import { connect } from 'nats';
import { jetStreamName } from '../../../plugins/streams/nats-backend.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** The streams settings of a kernel on the nats backend of this machine. */
export const natsStreams = { backend: 'nats', nats: { url: NATS_URL } } as const;

/** Deletes the JetStream streams this kernel made, so test runs do not pile up on the server. */
export async function dropJetStreams(tk: TestKernel): Promise<void> {
  const streams = (await tk.kernel.database.knex('streams_streams').select('tenant_id', 'uid')) as Array<{
    tenant_id: string;
    uid: string;
  }>;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const s of streams)
    await jsm.streams.delete(jetStreamName({ tenantId: s.tenant_id, uid: s.uid })).catch(() => undefined);
  await nc.drain();
}

/** A kernel with the streams plugin on the nats backend, without authentication. */
export function startNatsKernel(): Promise<TestKernel> {
  return startKernel({
    plugins: ['system', 'audit', 'streams'],
    auth: { mode: 'none' },
    settings: { streams: natsStreams },
  });
}

/** Drops the kernel's JetStream streams, then closes it (a no-op when it never started). */
export async function stopNatsKernel(tk: TestKernel | undefined): Promise<void> {
  if (!tk) return;
  await dropJetStreams(tk);
  await tk.close();
}
