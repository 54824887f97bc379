import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { load, ratio, startTarget, type Figures, type Running } from './harness.js';
import type { BenchContext, Scenario } from './scenarios.js';

/** 100 messages of about 1 KiB each, as one publish body. */
const VALUE = randomBytes(500).toString('hex');
const BATCH = JSON.stringify({ messages: Array.from({ length: 100 }, (_, i) => ({ key: `k${i % 10}`, value: VALUE })) });
const CONNECTIONS = 16;
// Long enough windows that a loaded machine (a publish taking seconds) still completes a fair sample.
const SECONDS = 10;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function kernelEnv(context: BenchContext, streams: Record<string, unknown>): Record<string, string> {
  return { BENCH_OVERRIDES: JSON.stringify({ plugins: ['system', 'audit', 'streams'], auth: { mode: 'none' }, log: { level: 'warn' }, database: context.database, settings: { streams } }) };
}

async function withTarget<T>(name: string, env: Record<string, string>, work: (target: Running) => Promise<T>): Promise<T> {
  const target = await startTarget(name, env);
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

async function createBenchStream(url: string): Promise<void> {
  const res = await fetch(`${url}/streams`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'bench', name: 'bench' }) });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating the bench stream answered ${res.status}`);
}

const publish = { path: '/streams/bench/messages', method: 'POST', body: BATCH, connections: CONNECTIONS, seconds: SECONDS };

/** Raw JetStream publishes of the same batches: CONNECTIONS workers, each publishing 100 messages and awaiting their acks. */
async function rawNats(): Promise<number> {
  const suffix = randomBytes(4).toString('hex');
  const subject = `bench.raw.${suffix}`;
  const stream = `BENCH_RAW_${suffix}`;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [subject], allow_direct: true });
  const js = nc.jetstream();
  const body = Buffer.from(JSON.stringify({ key: 'k', value: VALUE }));
  let batches = 0;
  const run = async (until: number, count: boolean): Promise<void> => {
    while (Date.now() < until) {
      await Promise.all(Array.from({ length: 100 }, () => js.publish(subject, body)));
      if (count) batches++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, () => run(Date.now() + 1000, false)));
  const start = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, () => run(start + SECONDS * 1000, true)));
  const perSecond = batches / ((Date.now() - start) / 1000);
  await jsm.streams.delete(stream);
  await nc.drain();
  return Math.round(perSecond);
}

/**
 * Messages per second read by offset: 4 readers page through partition 0 from offset 0, 1,000 at a
 * time, for SECONDS; counted in messages received (a read can take longer than a second).
 */
async function readRate(url: string): Promise<number> {
  let messages = 0;
  const until = Date.now() + SECONDS * 1000;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < until) {
        const res = await fetch(`${url}/streams/bench/messages?partition=0&from_offset=0&limit=1000`);
        if (res.status !== 200) throw new Error(`reading answered ${res.status}`);
        messages += ((await res.json()) as { items: unknown[] }).items.length;
      }
    }),
  );
  return Math.round(messages / ((Date.now() - start) / 1000));
}

/**
 * `npm run bench streams`: (a) batch publish of 100 × 1 KiB over REST vs a hand-written Koa handler
 * doing the same offsets and multi-row INSERT (target ≥ 0.8×); (b) the nats backend's REST publish
 * vs raw JetStream publishes of the same messages (target ≥ 0.7×); (c) messages/s read by offset.
 */
export const streamsScenario: Scenario = {
  name: 'streams',
  title: 'streams: batch publish vs hand-written INSERT (≥ 0.8×), nats REST vs raw JetStream (≥ 0.7×), read msgs/s',
  async run(context) {
    // BENCH_STREAMS_PART=postgres|nats runs one half alone (while working on it); both by default.
    const part = process.env.BENCH_STREAMS_PART;
    const pg = part === 'nats' ? undefined : await postgresPart(context);
    const nats = part === 'postgres' ? undefined : await natsPart(context);
    return { ...pg, ...nats };
  },
};

/** (a) and (c) on the postgres backend. */
async function postgresPart(context: BenchContext): Promise<Record<string, unknown>> {
  const pgEnv = kernelEnv(context, {});
  const best = { kernel: undefined as Figures | undefined, baseline: undefined as Figures | undefined };
  await withTarget('kernel', pgEnv, (t) => createBenchStream(t.url));
  for (const order of [['kernel', 'baseline'], ['baseline', 'kernel']] as const) {
    for (const side of order) {
      const figures = side === 'kernel'
        ? await withTarget('kernel', pgEnv, (t) => load(t.url, publish))
        : await withTarget('streams-baseline', { BENCH_DATABASE: JSON.stringify(context.database) }, (t) => load(t.url, publish));
      if (!best[side] || figures.rps > (best[side] as Figures).rps) best[side] = figures;
    }
  }
  const kernel = best.kernel as Figures;
  const baseline = best.baseline as Figures;
  const read = await withTarget('kernel', pgEnv, (t) => readRate(t.url));
  const publishRatio = ratio(kernel.rps, baseline.rps);
  return {
    publish_kernel: kernel,
    publish_baseline: baseline,
    publish_ratio_rps: publishRatio,
    publish_meets_target_0_8: publishRatio >= 0.8,
    publish_kernel_msgs_per_s: kernel.rps * 100,
    read_postgres_msgs_per_s: read,
  };
}

/** (b) and (c) on the nats backend. */
async function natsPart(context: BenchContext): Promise<Record<string, unknown>> {
  const natsEnv = kernelEnv(context, { backend: 'nats', nats: { url: NATS_URL } });
  // Raw and REST alternate (raw, REST, REST, raw) and each side keeps its best, as in (a): the
  // machine's load drifts during a run, and neither side should get only the quiet minutes.
  let raw = 0;
  let natsRest = undefined as { figures: Figures; reads: number } | undefined;
  for (const side of ['raw', 'rest', 'rest', 'raw'] as const) {
    if (side === 'raw') raw = Math.max(raw, await rawNats());
    else {
      const run = await withTarget('kernel', natsEnv, async (t) => {
        await fetch(`${t.url}/streams/bench`, { method: 'DELETE' });
        await createBenchStream(t.url);
        const figures = await load(t.url, publish);
        const reads = await readRate(t.url);
        await fetch(`${t.url}/streams/bench`, { method: 'DELETE' });
        return { figures, reads };
      });
      const reads = Math.max(natsRest?.reads ?? 0, run.reads);
      natsRest = !natsRest || run.figures.rps > natsRest.figures.rps ? { figures: run.figures, reads } : { ...natsRest, reads };
    }
  }
  if (!natsRest) throw new Error('no nats run');
  const natsRatio = ratio(natsRest.figures.rps, raw);
  return {
    nats_rest_publish: natsRest.figures,
    nats_raw_batches_per_s: raw,
    nats_ratio: natsRatio,
    nats_meets_target_0_7: natsRatio >= 0.7,
    read_nats_msgs_per_s: natsRest.reads,
  };
}
