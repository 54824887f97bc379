import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import { load, ratio, startTarget, type Figures, type Running } from './harness.js';
import type { BenchContext, Scenario } from './scenarios.js';

/** 100 messages of about 1 KiB each, as one publish body. */
const VALUE = randomBytes(500).toString('hex');
const BATCH = JSON.stringify({
  messages: Array.from({ length: 100 }, (_, i) => ({ key: `k${i % 10}`, value: VALUE })),
});
const CONNECTIONS = 16;
// Long enough windows that a loaded machine (a publish taking seconds) still completes a fair sample.
const SECONDS = 10;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function kernelEnv(context: BenchContext, streams: Record<string, unknown>): Record<string, string> {
  return {
    BENCH_OVERRIDES: JSON.stringify({
      plugins: ['system', 'audit', 'streams'],
      auth: { mode: 'none' },
      log: { level: 'warn' },
      database: context.database,
      settings: { streams },
    }),
  };
}

async function withTarget<T>(
  name: string,
  env: Record<string, string>,
  work: (target: Running) => Promise<T>,
): Promise<T> {
  const target = await startTarget(name, env);
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

async function createBenchStream(url: string): Promise<void> {
  const res = await fetch(`${url}/streams`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'bench', name: 'bench' }),
  });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating the bench stream answered ${res.status}`);
}

const publish = {
  path: '/streams/bench/messages',
  method: 'POST',
  body: BATCH,
  connections: CONNECTIONS,
  seconds: SECONDS,
};

/** A JetStream stream of its own for the raw publishes and the Koa floor, deleted after. */
async function withRawStream<T>(work: (subject: string, nc: NatsConnection) => Promise<T>): Promise<T> {
  const suffix = randomBytes(4).toString('hex');
  const subject = `bench.raw.${suffix}`;
  const stream = `BENCH_RAW_${suffix}`;
  // The same client options as the backend's connection (no async traces), so the sides differ only in what they do.
  const nc = await connect({ servers: NATS_URL, noAsyncTraces: true });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [subject], allow_direct: true });
  try {
    return await work(subject, nc);
  } finally {
    await jsm.streams.delete(stream);
    await nc.drain();
  }
}

/** Raw JetStream publishes of the same batches for `seconds`: CONNECTIONS workers, each publishing 100 messages and awaiting their acks; batches/s. */
async function rawWindow(js: JetStreamClient, subject: string, seconds: number): Promise<number> {
  const body = Buffer.from(JSON.stringify({ key: 'k', value: VALUE }));
  let batches = 0;
  const start = Date.now();
  const until = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        await Promise.all(Array.from({ length: 100 }, () => js.publish(subject, body)));
        batches++;
      }
    }),
  );
  return Math.round((batches / ((Date.now() - start) / 1000)) * 100) / 100;
}

/** One autocannon window of the publish request on a running target (no warm-up); requests/s. */
async function httpWindow(url: string, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'POST', path: publish.path, headers: { 'content-type': 'application/json' }, body: BATCH }],
  });
  return {
    rps: Math.round(result.requests.average * 100) / 100,
    p99_ms: result.latency.p99,
    mean_ms: Math.round(result.latency.mean * 100) / 100,
    errors: result.errors + result.non2xx,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
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
 * vs raw JetStream publishes of the same messages (target ≥ 0.7×), and vs a hand-written Koa
 * handler publishing the same HTTP batches to JetStream (the floor of any REST publish);
 * (c) messages/s read by offset.
 */
export const streamsScenario: Scenario = {
  name: 'streams',
  title:
    'streams: batch publish vs hand-written INSERT (≥ 0.8×), nats REST vs raw JetStream (≥ 0.7×) and vs a Koa+JetStream floor, read msgs/s',
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
  for (const order of [
    ['kernel', 'baseline'],
    ['baseline', 'kernel'],
  ] as const) {
    for (const side of order) {
      const figures =
        side === 'kernel'
          ? await withTarget('kernel', pgEnv, (t) => load(t.url, publish))
          : await withTarget('streams-baseline', { BENCH_DATABASE: JSON.stringify(context.database) }, (t) =>
              load(t.url, publish),
            );
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

/**
 * (b) and (c) on the nats backend. Beside raw in-process publishes (the issue's ratio), a
 * hand-written Koa handler publishing the same HTTP batches to JetStream: the floor any REST
 * publish pays for HTTP and a 140 KB JSON body. When that floor is itself under 0.7× of raw, 0.7×
 * of raw is out of reach for any REST implementation, and REST ≥ 0.7× of the floor is the fair
 * target (as (a) compares with a hand-written Koa handler).
 *
 * The kernel and the floor run side by side (an idle one costs nothing), and the three sides take
 * turns in short windows, the order rotating each round, so a neighbour's burst on this shared
 * machine falls on all alike: the ratios are medians of the rounds' ratios, the figures each side's best window.
 */
async function natsPart(context: BenchContext): Promise<Record<string, unknown>> {
  const natsEnv = kernelEnv(context, { backend: 'nats', nats: { url: NATS_URL } });
  const rounds = Number(process.env.BENCH_STREAMS_ROUNDS ?? 6);
  const windowSeconds = 3;
  return withRawStream((subject, nc) =>
    withTarget('streams-nats-floor', { BENCH_NATS_SUBJECT: subject, NATS_URL }, (floorTarget) =>
      withTarget('kernel', natsEnv, async (kernel) => {
        await fetch(`${kernel.url}/streams/bench`, { method: 'DELETE' });
        await createBenchStream(kernel.url);
        const js = nc.jetstream();
        const sides = {
          raw: async () =>
            ({ rps: await rawWindow(js, subject, windowSeconds) }) as Pick<Figures, 'rps'> & Partial<Figures>,
          floor: () => httpWindow(floorTarget.url, windowSeconds),
          rest: () => httpWindow(kernel.url, windowSeconds),
        };
        // Warm-up: one second of each.
        await rawWindow(js, subject, 1);
        await httpWindow(floorTarget.url, 1);
        await httpWindow(kernel.url, 1);
        const best: Record<string, Partial<Figures>> = {};
        const ratios = { rest_raw: [] as number[], rest_floor: [] as number[], floor_raw: [] as number[] };
        const orders = [
          ['raw', 'floor', 'rest'],
          ['rest', 'floor', 'raw'],
          ['floor', 'rest', 'raw'],
        ] as const;
        for (let round = 0; round < rounds; round++) {
          const got: Record<string, number> = {};
          for (const side of orders[round % orders.length] as readonly (keyof typeof sides)[]) {
            const figures = await sides[side]();
            got[side] = figures.rps;
            if (!best[side] || figures.rps > (best[side].rps ?? 0)) best[side] = figures;
          }
          ratios.rest_raw.push(ratio(got.rest as number, got.raw as number));
          ratios.rest_floor.push(ratio(got.rest as number, got.floor as number));
          ratios.floor_raw.push(ratio(got.floor as number, got.raw as number));
        }
        const reads = process.env.BENCH_STREAMS_READS === '0' ? 0 : await readRate(kernel.url);
        await fetch(`${kernel.url}/streams/bench`, { method: 'DELETE' });
        const natsRatio = ratio(median(ratios.rest_raw), 1);
        const restToFloor = ratio(median(ratios.rest_floor), 1);
        const floorToRaw = ratio(median(ratios.floor_raw), 1);
        return {
          nats_rest_publish: best.rest,
          nats_koa_floor_publish: best.floor,
          nats_raw_batches_per_s: best.raw?.rps,
          nats_ratio: natsRatio,
          nats_meets_target_0_7: natsRatio >= 0.7,
          nats_rest_to_koa_floor: restToFloor,
          nats_koa_floor_to_raw: floorToRaw,
          // Under 0.7 here, no REST publish can reach 0.7× of raw; the fair target is then 0.7× of the floor.
          nats_raw_target_reachable: floorToRaw >= 0.7,
          nats_meets_floor_target_0_7: restToFloor >= 0.7,
          nats_round_ratios: ratios,
          read_nats_msgs_per_s: reads,
        };
      }),
    ),
  );
}
