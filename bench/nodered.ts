import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { postgresCpu, postgresCpuSince, processCpuMicros, startTarget, type Running } from './harness.js';
import type { BenchContext, Scenario } from './scenarios.js';

/**
 * `npm run bench nodered`: the same job on this runtime and on Node-RED, each in its own process,
 * on the real Mosquitto (127.0.0.1:1883): MQTT in (QoS 1) → JSON → °C to °F, readings below 50 °F
 * dropped (every fifth input: 80% pass) → MQTT out (QoS 1). This runtime: an `mqtt.subscribe`
 * source into a stream, a workflow with a `script` step, an `mqtt.publish` sink. Node-RED:
 * `mqtt in` → `json` → `function` → `mqtt out`. Both keep an MQTT session across restarts
 * (persistent session, fixed client id), so what the broker holds for them survives a kill.
 *
 * Node-RED keeps nothing durable (an input it acknowledged is lost if it dies before publishing),
 * so a third side measures what the runtime's guarantees cost at the least: the durable floor
 * (bench/targets/nodered-floor.ts), a hand-written process with no kernel that acknowledges an
 * input only once it is committed to a table of the same database (PGlite opened as the kernel
 * opens it, or PostgreSQL), runs the script in the project's sandbox (QuickJS worker threads,
 * the workflows plugin's pool), records each output with a stable id before publishing it (QoS 1,
 * MQTT 5 `message-id`) and marks it delivered once the broker acknowledged it, batching whatever
 * arrived meanwhile into one commit. `floor_vs_nodered` is then the price of durability and the
 * sandbox, `runtime_vs_floor` what the kernel adds on top. The variants floor-host (the script as
 * a host function), floor-nodb (no writes) and floor-mqtt (neither) split the floor's CPU per
 * output into database, sandbox and the rest, and floor-batchrun (one sandbox run per batch)
 * shows how much of the sandbox's share is its cost per run; they run only when named in
 * BENCH_NODERED_SIDES.
 * The floor raises its MQTT 5 receive maximum (BENCH_NODERED_FLOOR_RECEIVE_MAXIMUM, default
 * 65,535) so the broker hands it its backlog rather than dropping what passes Mosquitto's queue
 * (`lost` shows when a side met that limit); the receiver does the same for every side.
 *
 * Phases, each run on both sides in turn (the order flips between phases):
 * - full speed: MESSAGES published as fast as the broker takes them; outputs/s over the time
 *   from the first publish to the last output, p50/p95/p99 from publish to arrival, CPU seconds
 *   of the side's process, its peak RSS, losses and duplicates (by input number). The runtime's
 *   `/health` is polled meanwhile (latency p99 while it works through the backlog).
 * - steady: STEADY_MESSAGES at STEADY_RATE msgs/s; losses and p99.
 * - kill: KILL_MESSAGES at KILL_RATE msgs/s; the side's process is SIGKILLed a third of the way
 *   through and started again at once; what was lost, duplicated, and how long from the restart
 *   until outputs flowed again.
 */
const MESSAGES = Number(process.env.BENCH_NODERED_MESSAGES ?? 20_000);
const STEADY_RATE = Number(process.env.BENCH_NODERED_STEADY_RATE ?? 1000);
const STEADY_MESSAGES = Number(process.env.BENCH_NODERED_STEADY_MESSAGES ?? 5000);
const KILL_RATE = Number(process.env.BENCH_NODERED_KILL_RATE ?? 300);
const KILL_MESSAGES = Number(process.env.BENCH_NODERED_KILL_MESSAGES ?? 3000);
/** A phase ends when every expected output arrived, or when none arrived for this long. */
const IDLE_MS = Number(process.env.BENCH_NODERED_IDLE_MS ?? 15_000);
const BROKER = 'mqtt://127.0.0.1:1883';
const FLOOR_RECEIVE_MAXIMUM = Number(process.env.BENCH_NODERED_FLOOR_RECEIVE_MAXIMUM ?? 65_535);
/**
 * Which phases run (comma-separated: full, steady, kill) and which sides: runtime, nodered, floor
 * (all three by default) and the floor's breakdown variants floor-host, floor-nodb, floor-mqtt,
 * floor-batchrun (only when named; see FLOOR_VARIANTS).
 */
const PHASES = new Set((process.env.BENCH_NODERED_PHASES ?? 'full,steady,kill').split(','));
const SIDES = new Set((process.env.BENCH_NODERED_SIDES ?? 'nodered,runtime,floor').split(','));

/**
 * The durable floor (bench/targets/nodered-floor.ts) and, to split its cost, the same process
 * with a part taken out: the script as a plain host function instead of the sandbox (never
 * allowed for tenant code), no database writes (no durability), or neither (MQTT and JSON alone);
 * and floor-batchrun, one sandbox run per batch rather than per input (the script still runs
 * only in the sandbox, but inputs of a batch share a session): the sandbox's cost per run.
 */
const FLOOR_VARIANTS = {
  floor: { script: 'sandbox', store: 'database' },
  'floor-host': { script: 'host', store: 'database' },
  'floor-nodb': { script: 'sandbox', store: 'none' },
  'floor-mqtt': { script: 'host', store: 'none' },
  'floor-batchrun': { script: 'sandbox-batch', store: 'database' },
} as const;
type FloorVariant = keyof typeof FLOOR_VARIANTS;

/** Input i carries °C; every fifth is 0 °C (32 °F, dropped), the rest 20 °C (68 °F, passed on). */
const celsius = (i: number) => (i % 5 === 0 ? 0 : 20);
const expectedOf = (count: number, from = 0) => {
  let n = 0;
  for (let i = from; i < from + count; i++) if (celsius(i) * 1.8 + 32 >= 50) n++;
  return n;
};

/** The function both sides run, in each one's own words. */
const NODE_RED_FUNCTION =
  'const f = msg.payload.c * 9 / 5 + 32;\nif (f < 50) return null;\nmsg.payload = { ...msg.payload, f };\nreturn msg;';
const RUNTIME_SCRIPT =
  'const v = service.json.decode(input.body); const f = v.c * 9 / 5 + 32; if (f >= 50) service.route.push({ ...v, f });';

interface Side {
  name: string;
  inTopic: string;
  outTopic: string;
  start(): Promise<{ pid: number; url?: string }>;
  /** The PostgreSQL backend serving the side's one connection, when it has exactly one (the floor on PostgreSQL). */
  backendPid?(): Promise<number | undefined>;
  kill(): void;
  stop(): Promise<void>;
}

function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number);

/** What arrived on a side's output topic: per input number, how often, and the latencies. */
class Receiver {
  readonly seen = new Map<number, number>();
  /** When each distinct output arrived, in arrival order (the n-th new one at index n). */
  distinctAt: number[] = [];
  latencies: number[] = [];
  lastAt = 0;
  private waiters: Array<() => void> = [];
  constructor(private readonly client: MqttClient) {}

  static async open(topic: string): Promise<Receiver> {
    // MQTT 5 with the largest in-flight window: past its window (Mosquitto's default is 20) and its
    // queue (1,000) the broker drops messages for a subscriber that lags, and a side that publishes
    // a batch's outputs at once (the floor) would then look as if it lost them.
    const client = await mqtt.connectAsync(BROKER, {
      clientId: `bench-rx-${randomBytes(4).toString('hex')}`,
      protocolVersion: 5,
      properties: { receiveMaximum: 65_535 },
    });
    const receiver = new Receiver(client);
    client.on('message', (_topic, payload) => {
      const now = Date.now();
      let value: { i?: number; ts?: number };
      try {
        value = JSON.parse(payload.toString('utf8')) as { i?: number; ts?: number };
      } catch {
        return;
      }
      if (typeof value.i !== 'number') return;
      if (!receiver.seen.has(value.i)) receiver.distinctAt.push(now);
      receiver.seen.set(value.i, (receiver.seen.get(value.i) ?? 0) + 1);
      if (value.i >= 0 && typeof value.ts === 'number') receiver.latencies.push(now - value.ts);
      receiver.lastAt = now;
      for (const w of receiver.waiters.splice(0)) w();
    });
    await client.subscribeAsync(topic, { qos: 1 });
    return receiver;
  }

  reset(): void {
    this.seen.clear();
    this.distinctAt = [];
    this.latencies = [];
    this.lastAt = 0;
  }

  /** Distinct inputs in [from, to) seen, and how many arrived more than once. */
  count(from: number, to: number): { distinct: number; duplicates: number; firstAt?: number } {
    let distinct = 0;
    let duplicates = 0;
    for (const [i, n] of this.seen) {
      if (i < from || i >= to) continue;
      distinct++;
      duplicates += n - 1;
    }
    return { distinct, duplicates };
  }

  /** Resolves when `done()` holds, or when nothing arrived for IDLE_MS. */
  async until(done: () => boolean, idleMs = IDLE_MS): Promise<void> {
    let last = Date.now();
    while (!done()) {
      const before = this.seen.size + this.latencies.length;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (this.seen.size + this.latencies.length !== before) last = Date.now();
      else if (Date.now() - last > idleMs) return;
    }
  }

  close(): Promise<void> {
    return this.client.endAsync();
  }
}

/** Publishes inputs [from, from+count) to `topic`, at `rate` msgs/s or (rate 0) as fast as the broker acknowledges. */
async function send(
  client: MqttClient,
  topic: string,
  from: number,
  count: number,
  rate: number,
  onProgress?: (sent: number) => void,
): Promise<void> {
  const started = Date.now();
  const inFlight = new Set<Promise<unknown>>();
  for (let k = 0; k < count; k++) {
    const i = from + k;
    if (rate > 0) {
      const due = started + (k * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    }
    const p = client.publishAsync(`${topic}/sensor${i % 8}`, JSON.stringify({ i, c: celsius(i), ts: Date.now() }), {
      qos: 1,
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    // At full speed keep a window in flight (the broker's own limit is what paces us).
    if (inFlight.size >= 200) await Promise.race(inFlight);
    onProgress?.(k + 1);
  }
  await Promise.all(inFlight);
}

/** Publishes probes (negative numbers) until one comes out: the side is connected, subscribed and processing. */
async function warmUp(client: MqttClient, side: Side, receiver: Receiver): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (let probe = -1; ; probe--) {
    await client.publishAsync(`${side.inTopic}/probe`, JSON.stringify({ i: probe, c: 20, ts: Date.now() }), {
      qos: 1,
    });
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      if ([...receiver.seen.keys()].some((i) => i < 0)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (Date.now() > deadline) throw new Error(`${side.name}: no output within 120 s of starting`);
  }
}

/** /health latencies while a phase runs (every 50 ms, one at a time). */
function pollHealth(url: string | undefined): { stop(): Promise<number[]> } {
  if (!url) return { stop: async () => [] };
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        await (await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) })).arrayBuffer();
        samples.push(performance.now() - t);
      } catch {
        samples.push(performance.now() - t);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** The runtime's per-stage counters from /metrics: seconds, batches and messages of each data-plane stage so far. */
interface StageCounters {
  sums: Map<string, number>;
  batches: Map<string, number>;
  messages: Map<string, number>;
}

async function stageCounters(url: string | undefined): Promise<StageCounters | undefined> {
  if (!url) return undefined;
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => {
    const values = new Map<string, number>();
    for (const m of text.matchAll(new RegExp(`^${name}\\{stage="([a-z_]+)"\\} ([0-9.e+-]+)$`, 'gm')))
      values.set(m[1] as string, Number(m[2]));
    return values;
  };
  return {
    sums: read('runtime_stage_seconds_sum'),
    batches: read('runtime_stage_seconds_count'),
    messages: read('runtime_stage_messages_total'),
  };
}

/** Each data-plane stage's ms per message and mean batch size, over what the counters moved since `before`. */
async function stageFigures(
  url: string | undefined,
  before?: StageCounters,
): Promise<Record<string, unknown> | undefined> {
  const now = await stageCounters(url);
  if (!now) return undefined;
  const since = (m: Map<string, number>, of: Map<string, number> | undefined, stage: string) =>
    (m.get(stage) ?? 0) - (of?.get(stage) ?? 0);
  const out: Record<string, unknown> = {};
  for (const stage of now.sums.keys()) {
    const sum = since(now.sums, before?.sums, stage);
    const n = since(now.messages, before?.messages, stage);
    const batches = since(now.batches, before?.batches, stage);
    out[stage] = {
      ms_per_message: n ? Number(((sum * 1000) / n).toFixed(3)) : null,
      messages_per_batch: Number((n / Math.max(1, batches)).toFixed(1)),
    };
  }
  return out;
}

const round = (x: number | null, digits = 1) => (x === null ? null : Number(x.toFixed(digits)));

/** CPU µs of a process so far, 0 once it is gone. */
const cpuOf = (pid: number | undefined) => {
  if (pid === undefined) return 0;
  try {
    return processCpuMicros(pid);
  } catch {
    return 0;
  }
};

async function fullSpeed(
  side: Side,
  pid: number,
  url: string | undefined,
  receiver: Receiver,
  client: MqttClient,
  onPostgres: boolean,
) {
  receiver.reset();
  const expected = expectedOf(MESSAGES);
  const backend = onPostgres ? await side.backendPid?.() : undefined;
  const db0 = onPostgres ? postgresCpu() : undefined;
  const backend0 = cpuOf(backend);
  const stages0 = await stageCounters(url).catch(() => undefined);
  const cpu0 = processCpuMicros(pid);
  const health = pollHealth(url);
  const t0 = Date.now();
  await send(client, side.inTopic, 0, MESSAGES, 0);
  const sentSeconds = (Date.now() - t0) / 1000;
  await receiver.until(() => receiver.count(0, MESSAGES).distinct >= expected);
  const healthMs = (await health.stop()).sort((a, b) => a - b);
  // cpuOf: a side that failed has exited (its CPU up to then is lost; its `lost` figure shows it).
  const cpu = Math.max(0, cpuOf(pid) - cpu0) / 1e6;
  const db = db0 ? postgresCpuSince(db0) / 1e6 : undefined;
  const backendCpu = backend === undefined ? undefined : (cpuOf(backend) - backend0) / 1e6;
  const { distinct, duplicates } = receiver.count(0, MESSAGES);
  const seconds = Math.max(0.001, (receiver.lastAt - t0) / 1000);
  const lat = [...receiver.latencies].sort((a, b) => a - b);
  return {
    inputs: MESSAGES,
    sent_in_s: round(sentSeconds, 2),
    expected_outputs: expected,
    outputs_received: distinct,
    lost: expected - distinct,
    duplicates,
    seconds: round(seconds, 2),
    outputs_per_s: Math.round(distinct / seconds),
    p50_ms: percentile(lat, 50),
    p95_ms: percentile(lat, 95),
    p99_ms: percentile(lat, 99),
    cpu_s: round(cpu, 2),
    cpu_ms_per_output: round((cpu * 1000) / Math.max(1, distinct), 3),
    peak_rss_mb: peakRssMb(pid),
    // On PostgreSQL: every PostgreSQL process's CPU meanwhile (an upper bound: the machine's other
    // users of the server count too) and, for a side with one connection, its backend's alone.
    ...(db === undefined
      ? {}
      : {
          postgres_cpu_s: round(db, 2),
          cpu_ms_per_output_with_postgres: round(((cpu + db) * 1000) / Math.max(1, distinct), 3),
        }),
    ...(backendCpu === undefined
      ? {}
      : {
          postgres_backend_cpu_s: round(backendCpu, 2),
          cpu_ms_per_output_with_backend: round(((cpu + backendCpu) * 1000) / Math.max(1, distinct), 3),
        }),
    ...(url ? { health_p99_ms: round(percentile(healthMs, 99)), health_max_ms: round(healthMs.at(-1) ?? null) } : {}),
    ...(url ? { stages: await stageFigures(url, stages0).catch(() => undefined) } : {}),
    ...(url ? { consumers: await api(url, 'GET', '/streams/readings/consumers').catch((e: Error) => e.message) } : {}),
  };
}

async function steady(
  side: Side,
  pid: number,
  url: string | undefined,
  receiver: Receiver,
  client: MqttClient,
  from: number,
  onPostgres: boolean,
) {
  receiver.reset();
  const expected = expectedOf(STEADY_MESSAGES, from);
  const stages0 = await stageCounters(url).catch(() => undefined);
  const health = pollHealth(url);
  const cpu0 = processCpuMicros(pid);
  const db0 = onPostgres ? postgresCpu() : undefined;
  await send(client, side.inTopic, from, STEADY_MESSAGES, STEADY_RATE);
  await receiver.until(() => receiver.count(from, from + STEADY_MESSAGES).distinct >= expected, 10_000);
  const cpu = (processCpuMicros(pid) - cpu0) / 1e6;
  const healthMs = (await health.stop()).sort((a, b) => a - b);
  const db = db0 ? postgresCpuSince(db0) / 1e6 : undefined;
  const { distinct, duplicates } = receiver.count(from, from + STEADY_MESSAGES);
  const lat = [...receiver.latencies].sort((a, b) => a - b);
  return {
    rate: STEADY_RATE,
    inputs: STEADY_MESSAGES,
    expected_outputs: expected,
    lost: expected - distinct,
    duplicates,
    p50_ms: percentile(lat, 50),
    p99_ms: percentile(lat, 99),
    cpu_s: round(cpu, 2),
    cpu_ms_per_output: round((cpu * 1000) / Math.max(1, distinct), 3),
    ...(db === undefined
      ? {}
      : {
          postgres_cpu_s: round(db, 2),
          cpu_ms_per_output_with_postgres: round(((cpu + db) * 1000) / Math.max(1, distinct), 3),
        }),
    ...(url ? { health_p99_ms: round(percentile(healthMs, 99)), health_max_ms: round(healthMs.at(-1) ?? null) } : {}),
    ...(url ? { stages: await stageFigures(url, stages0).catch(() => undefined) } : {}),
  };
}

async function killAndRestart(side: Side, receiver: Receiver, client: MqttClient, from: number) {
  receiver.reset();
  const expected = expectedOf(KILL_MESSAGES, from);
  let restartedAt = 0;
  let restarting: Promise<unknown> | undefined;
  await send(client, side.inTopic, from, KILL_MESSAGES, KILL_RATE, (sent) => {
    if (sent === Math.floor(KILL_MESSAGES / 3) && !restarting) {
      side.kill();
      const seenAtKill = receiver.seen.size;
      restarting = (async () => {
        restartedAt = Date.now();
        await side.start();
        return seenAtKill;
      })();
    }
  });
  const seenAtKill = (await restarting) as number;
  // Outputs flowing again: when the sixth new output after those seen at the kill arrived (a few
  // may still have been on their way from the killed process). Arrival times are recorded as
  // outputs come, so this does not depend on when the sender finished.
  const flowing = () => receiver.distinctAt[seenAtKill + 5];
  // A restart on a loaded machine may take a while before the first output: wait at least a minute.
  await receiver.until(
    () => receiver.count(from, from + KILL_MESSAGES).distinct >= expected,
    Math.max(IDLE_MS, 60_000),
  );
  const flowingAt = flowing() ?? receiver.distinctAt[seenAtKill] ?? 0;
  const { distinct, duplicates } = receiver.count(from, from + KILL_MESSAGES);
  return {
    rate: KILL_RATE,
    inputs: KILL_MESSAGES,
    killed_after_inputs: Math.floor(KILL_MESSAGES / 3),
    expected_outputs: expected,
    lost: expected - distinct,
    duplicates,
    outputs_flowing_again_s: flowingAt ? round((flowingAt - restartedAt) / 1000, 2) : null,
  };
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function runtimeSide(context: BenchContext, run: string): Side {
  const inTopic = `bench/in/${run}/runtime`;
  const outTopic = `bench/out/${run}/runtime`;
  let current: Running | undefined;
  let configured = false;
  const env = {
    BENCH_OVERRIDES: JSON.stringify({
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'connectors'],
      auth: { mode: 'none' },
      log: { level: 'warn' },
      database: context.database,
    }),
  };
  return {
    name: 'runtime',
    inTopic,
    outTopic,
    async start() {
      current = await startTarget('kernel', env);
      if (!configured) {
        configured = true;
        const url = current.url;
        await api(url, 'POST', '/streams', { id: 'readings', name: 'readings' });
        const source = await api(url, 'POST', '/components', {
          name: 'mqtt-in',
          type: 'mqtt.subscribe',
          stream: 'readings',
          config: { url: BROKER, topic: `${inTopic}/#`, qos: 1, client_id: `bench-rt-in-${run}` },
        });
        const sink = await api(url, 'POST', '/components', {
          name: 'mqtt-out',
          type: 'mqtt.publish',
          config: { url: BROKER, topic: outTopic, qos: 1 },
        });
        await api(url, 'POST', `/components/${source.id as string}/start`, {});
        await api(url, 'POST', '/workflows', {
          id: 'fahrenheit',
          name: 'Fahrenheit',
          input: { component: source.id },
          steps: [{ type: 'script', config: { source: RUNTIME_SCRIPT } }],
          sinks: [{ component: sink.id }],
        });
        await api(url, 'POST', '/workflows/fahrenheit/deploy', { request_id: `bench-${run}` });
      }
      return { pid: current.pid, url: current.url };
    },
    kill() {
      if (current) process.kill(current.pid, 'SIGKILL');
      current = undefined;
    },
    async stop() {
      await current?.stop();
      current = undefined;
    },
  };
}

function nodeRedSide(run: string): Side {
  const inTopic = `bench/in/${run}/nodered`;
  const outTopic = `bench/out/${run}/nodered`;
  const userDir = mkdtempSync(join(tmpdir(), 'bench-nodered-'));
  const flows = [
    { id: 'a1b2c3d4e5f60001', type: 'tab', label: 'bench' },
    {
      id: 'a1b2c3d4e5f60002',
      type: 'mqtt-broker',
      name: 'mosquitto',
      broker: '127.0.0.1',
      port: '1883',
      clientid: `bench-nr-${run}`,
      autoConnect: true,
      usetls: false,
      protocolVersion: '4',
      keepalive: '60',
      cleansession: false,
    },
    {
      id: 'a1b2c3d4e5f60003',
      type: 'mqtt in',
      z: 'a1b2c3d4e5f60001',
      topic: `${inTopic}/#`,
      qos: '1',
      datatype: 'utf8',
      broker: 'a1b2c3d4e5f60002',
      nl: false,
      rap: false,
      inputs: 0,
      wires: [['a1b2c3d4e5f60004']],
    },
    {
      id: 'a1b2c3d4e5f60004',
      type: 'json',
      z: 'a1b2c3d4e5f60001',
      property: 'payload',
      action: 'obj',
      pretty: false,
      wires: [['a1b2c3d4e5f60005']],
    },
    {
      id: 'a1b2c3d4e5f60005',
      type: 'function',
      z: 'a1b2c3d4e5f60001',
      func: NODE_RED_FUNCTION,
      outputs: 1,
      wires: [['a1b2c3d4e5f60006']],
    },
    {
      id: 'a1b2c3d4e5f60006',
      type: 'mqtt out',
      z: 'a1b2c3d4e5f60001',
      topic: outTopic,
      qos: '1',
      retain: 'false',
      broker: 'a1b2c3d4e5f60002',
      wires: [],
    },
  ];
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flows));
  writeFileSync(
    join(userDir, 'settings.js'),
    `module.exports = { flowFile: 'flows.json', credentialSecret: false, httpAdminRoot: false, httpNodeRoot: false, logging: { console: { level: 'warn', metrics: false, audit: false } }, externalModules: { autoInstall: false } };\n`,
  );
  const redJs = createRequire(import.meta.url).resolve('node-red/red.js');
  let child: ChildProcess | undefined;
  return {
    name: 'nodered',
    inTopic,
    outTopic,
    async start() {
      const c = spawn(
        process.execPath,
        [redJs, '--userDir', userDir, '--port', '0', '--settings', join(userDir, 'settings.js')],
        {
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      child = c;
      return { pid: c.pid as number };
    },
    kill() {
      child?.kill('SIGKILL');
      child = undefined;
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      });
    },
  };
}

function floorSide(context: BenchContext, run: string, variant: FloorVariant): Side {
  const inTopic = `bench/in/${run}/${variant}`;
  const outTopic = `bench/out/${run}/${variant}`;
  const clientId = `bench-${variant}-${run}`;
  // A data directory of its own (the runtime's is another cluster), kept across a kill's restart.
  const database = context.database.url
    ? { url: context.database.url, ...(context.database.schema ? { schema: context.database.schema } : {}) }
    : { data_dir: mkdtempSync(join(tmpdir(), 'bench-nrfloor-')) };
  const env = {
    BENCH_FLOOR: JSON.stringify({
      broker: BROKER,
      inTopic,
      outTopic,
      clientId,
      source: RUNTIME_SCRIPT,
      receiveMaximum: FLOOR_RECEIVE_MAXIMUM,
      database,
      ...FLOOR_VARIANTS[variant],
    }),
  };
  let current: Running | undefined;
  return {
    name: variant,
    inTopic,
    outTopic,
    async start() {
      current = await startTarget('nodered-floor', env);
      return { pid: current.pid };
    },
    async backendPid() {
      if (!context.database.url || FLOOR_VARIANTS[variant].store === 'none') return undefined;
      const client = new pg.Client({ connectionString: context.database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
          [clientId],
        );
        return rows.length === 1 ? rows[0]?.pid : undefined;
      } finally {
        await client.end();
      }
    },
    kill() {
      if (current) process.kill(current.pid, 'SIGKILL');
      current = undefined;
    },
    async stop() {
      const running = current;
      current = undefined;
      if (!running) return;
      // A floor that failed has exited already, and stop() would wait for an exit that happened.
      try {
        process.kill(running.pid, 0);
      } catch {
        return;
      }
      await running.stop();
    },
  };
}

async function measureSide(side: Side, onPostgres = false) {
  const receiver = await Receiver.open(side.outTopic);
  const client = await mqtt.connectAsync(BROKER, { clientId: `bench-tx-${randomBytes(4).toString('hex')}` });
  try {
    const { pid, url } = await side.start();
    await warmUp(client, side, receiver);
    const full = PHASES.has('full') ? await fullSpeed(side, pid, url, receiver, client, onPostgres) : undefined;
    const stead = PHASES.has('steady')
      ? await steady(side, pid, url, receiver, client, MESSAGES, onPostgres)
      : undefined;
    const kill = PHASES.has('kill')
      ? await killAndRestart(side, receiver, client, MESSAGES + STEADY_MESSAGES)
      : undefined;
    return { full_speed: full, steady: stead, kill };
  } finally {
    await side.stop().catch(() => undefined);
    await client.endAsync();
    await receiver.close();
  }
}

export const noderedScenario: Scenario = {
  name: 'nodered',
  title: `MQTT in → JSON → °C to °F, drop < 50 °F → MQTT out on Mosquitto: this runtime (mqtt.subscribe → stream → workflow script → mqtt.publish) vs Node-RED ${nodeRedVersion()} (mqtt in → json → function → mqtt out), ${MESSAGES} messages at full speed, ${STEADY_MESSAGES} at ${STEADY_RATE}/s, and a SIGKILL + restart at ${KILL_RATE}/s; separate processes (targets: ≥ 0.5× Node-RED's outputs/s on PostgreSQL, ≥ 0.3× on PGlite; CPU per output ≤ 4×)`,
  async run(context) {
    const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
    const postgres = Boolean(context.database.url);
    const nodered = SIDES.has('nodered') ? await measureSide(nodeRedSide(run)) : undefined;
    const runtime = SIDES.has('runtime') ? await measureSide(runtimeSide(context, run), postgres) : undefined;
    const floors: Partial<Record<FloorVariant, Measured>> = {};
    for (const variant of Object.keys(FLOOR_VARIANTS) as FloorVariant[])
      if (SIDES.has(variant)) floors[variant] = await measureSide(floorSide(context, run, variant), postgres);
    const throughput = Number(
      ((runtime?.full_speed?.outputs_per_s ?? 0) / Math.max(1, nodered?.full_speed?.outputs_per_s ?? 0)).toFixed(3),
    );
    // On PostgreSQL the server's CPU counts too: it does the work PGlite does in the kernel's process.
    const runtimeCpu = runtime?.steady?.cpu_ms_per_output_with_postgres ?? runtime?.steady?.cpu_ms_per_output ?? 0;
    const cpu = Number((runtimeCpu / Math.max(0.001, nodered?.steady?.cpu_ms_per_output ?? 0.001)).toFixed(2));
    const target = postgres ? 0.5 : 0.3;
    return {
      load_average: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      node_red_version: nodeRedVersion(),
      runtime,
      nodered,
      ratio_outputs_per_s: throughput,
      target_ratio_outputs_per_s: target,
      ratio_cpu_per_output_steady: cpu,
      target_ratio_cpu_per_output: 4,
      meets_target: throughput >= target && cpu <= 4,
      note: 'CPU seconds are each side’s own process; on PostgreSQL the ratio adds the CPU of every PostgreSQL process on the machine during the steady phase (an upper bound).',
      ...floorFigures(nodered, runtime, floors),
    };
  },
};

type Measured = Awaited<ReturnType<typeof measureSide>>;
type FullSpeed = NonNullable<Measured['full_speed']>;

/** a / b to three places; null when either is missing or b is 0. */
const ratioOf = (a: number | null | undefined, b: number | null | undefined) =>
  a == null || !b ? null : Number((a / b).toFixed(3));
/** CPU per output counting PostgreSQL's processes when the side ran on it (all of them: an upper bound). */
const cpuWithDb = (f: FullSpeed | undefined) => f?.cpu_ms_per_output_with_postgres ?? f?.cpu_ms_per_output;

/**
 * The floor's figures beside Node-RED's and the runtime's, from the full-speed phase (and the
 * steady phase's CPU per output when it ran): each floor variant measured, the ratios, and (when
 * the variants ran) what the floor's CPU per output is made of: database = floor − floor-nodb,
 * sandbox = floor − floor-host, its cost per run = floor − floor-batchrun, MQTT, JSON and the
 * process itself = floor-mqtt (the parts interact, so the shares add up only roughly).
 */
function floorFigures(
  noderedSide: Measured | undefined,
  runtimeSide: Measured | undefined,
  floors: Partial<Record<FloorVariant, Measured>>,
): Record<string, unknown> {
  const nodered = noderedSide?.full_speed;
  const runtime = runtimeSide?.full_speed;
  const floor = floors.floor?.full_speed;
  // The steady phase (a fixed rate no side falls behind, so none loses anything at the broker): CPU per output.
  const steadyCpu = (m: Measured | undefined) =>
    m?.steady?.cpu_ms_per_output_with_postgres ?? m?.steady?.cpu_ms_per_output;
  const floorSteady = steadyCpu(floors.floor);
  const out: Record<string, unknown> = {};
  for (const [variant, measured] of Object.entries(floors)) out[variant.replace('-', '_')] = measured;
  if (floor && nodered)
    out.floor_vs_nodered = {
      outputs_per_s: ratioOf(floor.outputs_per_s, nodered.outputs_per_s),
      cpu_per_output: ratioOf(floor.cpu_ms_per_output, nodered.cpu_ms_per_output),
      ...(floorSteady !== undefined
        ? { cpu_per_output_steady: ratioOf(floorSteady, noderedSide?.steady?.cpu_ms_per_output) }
        : {}),
      ...(floor.cpu_ms_per_output_with_backend !== undefined
        ? { cpu_per_output_with_backend: ratioOf(floor.cpu_ms_per_output_with_backend, nodered.cpu_ms_per_output) }
        : {}),
      ...(floor.cpu_ms_per_output_with_postgres !== undefined
        ? { cpu_per_output_with_postgres: ratioOf(floor.cpu_ms_per_output_with_postgres, nodered.cpu_ms_per_output) }
        : {}),
    };
  if (runtime && nodered)
    out.runtime_vs_nodered_full_speed = {
      outputs_per_s: ratioOf(runtime.outputs_per_s, nodered.outputs_per_s),
      cpu_per_output: ratioOf(runtime.cpu_ms_per_output, nodered.cpu_ms_per_output),
      ...(runtime.cpu_ms_per_output_with_postgres !== undefined
        ? { cpu_per_output_with_postgres: ratioOf(runtime.cpu_ms_per_output_with_postgres, nodered.cpu_ms_per_output) }
        : {}),
    };
  if (runtime && floor)
    out.runtime_vs_floor = {
      outputs_per_s: ratioOf(runtime.outputs_per_s, floor.outputs_per_s),
      cpu_per_output: ratioOf(runtime.cpu_ms_per_output, floor.cpu_ms_per_output),
      ...(floorSteady !== undefined ? { cpu_per_output_steady: ratioOf(steadyCpu(runtimeSide), floorSteady) } : {}),
      ...(runtime.cpu_ms_per_output_with_postgres !== undefined
        ? { cpu_per_output_with_postgres: ratioOf(cpuWithDb(runtime), cpuWithDb(floor)) }
        : {}),
    };
  const host = floors['floor-host']?.full_speed;
  const nodb = floors['floor-nodb']?.full_speed;
  const bare = floors['floor-mqtt']?.full_speed;
  const batchrun = floors['floor-batchrun']?.full_speed;
  if (floor && (host || nodb || bare || batchrun)) {
    const ms = (x: number | undefined) => (x === undefined ? null : Number(x.toFixed(3)));
    // On PostgreSQL the floor's own backend counts (the variants without writes use none); the
    // sum over every PostgreSQL process would add whatever else the shared server did meanwhile.
    const cost = (f: FullSpeed | undefined) => f?.cpu_ms_per_output_with_backend ?? f?.cpu_ms_per_output ?? 0;
    // Each part two ways (with and without the other part in), so the machine's noise shows.
    out.floor_cpu_ms_per_output_breakdown = {
      total: ms(cost(floor)),
      database: {
        ...(nodb ? { 'floor - floor-nodb': ms(cost(floor) - cost(nodb)) } : {}),
        ...(host && bare ? { 'floor-host - floor-mqtt': ms(cost(host) - cost(bare)) } : {}),
      },
      sandbox: {
        ...(host ? { 'floor - floor-host': ms(cost(floor) - cost(host)) } : {}),
        ...(nodb && bare ? { 'floor-nodb - floor-mqtt': ms(cost(nodb) - cost(bare)) } : {}),
        // What one sandbox run per input costs over one per batch: the per-run part of the sandbox's share.
        ...(batchrun ? { 'per run: floor - floor-batchrun': ms(cost(floor) - cost(batchrun)) } : {}),
      },
      ...(bare ? { mqtt_json_process: ms(cost(bare)) } : {}),
      outputs_per_s: Object.fromEntries(
        Object.entries(floors).map(([variant, measured]) => [variant, measured?.full_speed?.outputs_per_s ?? null]),
      ),
    };
  }
  return out;
}

function nodeRedVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (JSON.parse(readFileSync(require.resolve('node-red/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}
