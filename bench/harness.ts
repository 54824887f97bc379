import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { fromRoot } from '../kernel/paths.js';
import { productNodeFlags } from './product-node-flags.js';

export interface Running {
  url: string;
  /** The target's process id (its CPU time is read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** Targets that run the kernel itself: they run with the flags `npm start` gives it; floors and baselines with Node's defaults. */
const KERNEL_TARGETS = new Set(['kernel']);

/** Starts a benchmark target (dist/bench/targets/<name>.js) in its own process. */
export async function startTarget(name: string, env: Record<string, string>): Promise<Running> {
  const flags = KERNEL_TARGETS.has(name) ? productNodeFlags() : [];
  // BENCH_KERNEL_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): extra Node flags for the kernel's process, to profile it.
  if (KERNEL_TARGETS.has(name) && process.env.BENCH_KERNEL_FLAGS)
    flags.push(...process.env.BENCH_KERNEL_FLAGS.split(' '));
  const child: ChildProcess = spawn(process.execPath, [...flags, fromRoot('dist', 'bench', 'targets', `${name}.js`)], {
    env: { ...process.env, RUNTIME_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    // The target's log lines share stdout; the one that matters carries the URL.
    lines.on('line', (line) => {
      const match = /^\{"url":"([^"]+)"/.exec(line);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`target ${name} exited with ${code}`)));
  });
  child.stdout?.resume();
  return {
    url,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Figures {
  rps: number;
  p99_ms: number;
  mean_ms: number;
  errors: number;
}

export interface LoadOptions {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Makes a fresh request body each time (e.g. a new id per insert). */
  bodyFor?: () => string;
  connections?: number;
  seconds?: number;
}

/** Warms up for a second, then loads the URL for `seconds` and returns throughput and latency. */
export async function load(base: string, options: LoadOptions): Promise<Figures> {
  const request = {
    method: options.method ?? 'GET',
    path: options.path,
    headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.bodyFor
      ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: (options.bodyFor as () => string)() }) }
      : {}),
  };
  const connections = options.connections ?? 16;
  await autocannon({ url: base, connections, duration: 1, requests: [request] });
  const result = await autocannon({ url: base, connections, duration: options.seconds ?? 5, requests: [request] });
  return figuresOf(result);
}

function figuresOf(result: Awaited<ReturnType<typeof autocannon>>): Figures {
  return {
    // Whole requests per second, except under a few per second (a loaded machine, heavy requests), where rounding would hide the ratio.
    rps:
      result.requests.average >= 100
        ? Math.round(result.requests.average)
        : Math.round(result.requests.average * 100) / 100,
    p99_ms: result.latency.p99,
    mean_ms: Math.round(result.latency.mean * 100) / 100,
    errors: result.errors + result.non2xx,
  };
}

/**
 * CPU time each PostgreSQL server process on this machine has run so far, in µs by pid: the
 * database's share of a run on PostgreSQL (an upper bound: other databases' work on the server
 * counts too). Read the share with postgresCpuSince.
 */
export function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      byPid.set(Number(pid), processCpuMicros(Number(pid)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

/**
 * CPU µs PostgreSQL's processes ran since `before`: what each live one gained (a new one's whole
 * time). A process that exited meanwhile is left out; subtracting its earlier total (as a
 * difference of two sums would) made the figure negative when another user's connection closed.
 */
export function postgresCpuSince(before: ReadonlyMap<number, number>): number {
  let micros = 0;
  for (const [pid, now] of postgresCpu()) micros += now - (before.get(pid) ?? 0);
  return micros;
}

/** CPU time every thread of a process has run so far, in µs (schedstat counts in ns, not in 10 ms ticks as /proc/<pid>/stat does). */
export function processCpuMicros(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((p, q) => p - q);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A window's figures, with the target's CPU µs per request served in it. */
export interface WindowFigures extends Figures {
  cpu_us_per_request: number;
}

/**
 * Throughput of two running targets measured in short alternating windows (the order flips
 * each round), so a neighbour's burst on a shared machine falls on both alike. Returns each
 * side's best window and the median of the per-round ratios a/b. Beside it, the ratio of the
 * targets' CPU time per request (b's over a's, median of rounds): on a machine where the load
 * generator shares the cores, throughput also measures the generator (a response with more
 * headers costs it more to parse) and whoever else runs, while a target's own CPU time per
 * request is its cost alone.
 */
export async function interleavedLoad(
  a: Running,
  b: Running,
  options: LoadOptions,
  rounds: number,
): Promise<{
  a: WindowFigures;
  b: WindowFigures;
  ratio: number;
  ratios: number[];
  ratio_cpu: number;
  ratios_cpu: number[];
}> {
  const request = { method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} };
  const connections = options.connections ?? 16;
  const window = async (target: Running, seconds: number): Promise<WindowFigures> => {
    const cpuBefore = processCpuMicros(target.pid);
    const result = await autocannon({ url: target.url, connections, duration: seconds, requests: [request] });
    const cpu = processCpuMicros(target.pid) - cpuBefore;
    return {
      ...figuresOf(result),
      cpu_us_per_request: Math.round((cpu / Math.max(1, result.requests.total)) * 100) / 100,
    };
  };
  await window(a, 1);
  await window(b, 1);
  const best = (x: WindowFigures | undefined, y: WindowFigures): WindowFigures => (!x || y.rps > x.rps ? y : x);
  let bestA: WindowFigures | undefined;
  let bestB: WindowFigures | undefined;
  const ratios: number[] = [];
  const ratiosCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0;
    const x = await window(first ? a : b, options.seconds ?? 2);
    const y = await window(first ? b : a, options.seconds ?? 2);
    const [fa, fb] = first ? [x, y] : [y, x];
    bestA = best(bestA, fa);
    bestB = best(bestB, fb);
    ratios.push(ratio(fa.rps, fb.rps));
    ratiosCpu.push(ratio(fb.cpu_us_per_request, fa.cpu_us_per_request));
  }
  return {
    a: bestA as WindowFigures,
    b: bestB as WindowFigures,
    ratio: Math.round(median(ratios) * 1000) / 1000,
    ratios,
    ratio_cpu: Math.round(median(ratiosCpu) * 1000) / 1000,
    ratios_cpu: ratiosCpu,
  };
}

/** Sequential single-connection latency: the figure for "within N× the latency of". */
export async function latency(base: string, options: LoadOptions & { count: number }): Promise<number> {
  const samples: number[] = [];
  const init = (): RequestInit => ({
    method: options.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  for (let i = 0; i < options.count + 20; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(base + options.path, init());
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${options.path} answered ${res.status}`);
    if (i >= 20) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return Math.round((samples[Math.floor(samples.length / 2)] as number) * 1000) / 1000;
}

/**
 * Median latencies of two requests sent alternately on one connection, so machine noise falls
 * on both alike: the figure for "A within N× the latency of B".
 */
export async function pairedLatency(
  base: string,
  a: LoadOptions,
  b: LoadOptions,
  count: number,
): Promise<{ a: number; b: number }> {
  const once = async (options: LoadOptions): Promise<number> => {
    const started = process.hrtime.bigint();
    const res = await fetch(base + options.path, {
      method: options.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${options.path} answered ${res.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const samplesA: number[] = [];
  const samplesB: number[] = [];
  for (let i = 0; i < count + 50; i++) {
    const first = i % 2 === 0;
    const x = await once(first ? a : b);
    const y = await once(first ? b : a);
    if (i < 50) continue;
    samplesA.push(first ? x : y);
    samplesB.push(first ? y : x);
  }
  const median = (values: number[]): number => {
    values.sort((p, q) => p - q);
    return Math.round((values[Math.floor(values.length / 2)] as number) * 1000) / 1000;
  };
  return { a: median(samplesA), b: median(samplesB) };
}

export function ratio(a: number, b: number): number {
  return Math.round((a / b) * 1000) / 1000;
}

/** A port nobody listens on right now, for a process that must be told its port up front. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** CPU time (user + system, all threads) the process has used so far, in ms. */
export function procCpuMs(pid: number): number {
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz on Linux).
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface BootFigures {
  /** From spawning the process to the first 200 from GET /ready. */
  ready_ms: number;
  /** CPU the process had used by then: the part of ready_ms a busy machine cannot inflate. */
  cpu_ms: number;
  /** Resident memory after idling, and the most it ever held. */
  rss_idle_mb: number;
  rss_peak_mb: number;
  /** The kernel's own account of where the time went (its `serving` log line's boot_ms). */
  phases_ms?: Record<string, number>;
  /** CPU milliseconds of each phase (the kernel's boot_cpu_ms): less inflated than wall time by other work on the machine. */
  phases_cpu_ms?: Record<string, number>;
}

/**
 * Spawns the real process (`node dist/kernel/main.js`) with `env`, polls /ready every 10 ms,
 * lets it idle for `idleMs`, reads its memory from /proc, and stops it.
 */
export async function bootProcess(env: Record<string, string | undefined>, idleMs: number): Promise<BootFigures> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...productNodeFlags(), fromRoot('dist', 'kernel', 'main.js')], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let phases: Record<string, number> | undefined;
  let phasesCpu: Record<string, number> | undefined;
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (!line.includes('"boot_ms"')) return;
    try {
      const serving = JSON.parse(line) as { boot_ms?: Record<string, number>; boot_cpu_ms?: Record<string, number> };
      phases = serving.boot_ms;
      phasesCpu = serving.boot_cpu_ms;
    } catch {
      // Not the kernel's JSON log line.
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const pid = child.pid as number;
  try {
    let readyMs: number | undefined;
    let cpuMs = 0;
    while (readyMs === undefined) {
      if (exitCode !== undefined)
        throw new Error(`the kernel exited with ${exitCode} before it was ready: ${stderr.trim()}`);
      if (Number(process.hrtime.bigint() - started) / 1e6 > 60_000)
        throw new Error('the kernel was not ready within 60 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/ready`);
        await res.arrayBuffer();
        if (res.status === 200) {
          readyMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
          cpuMs = procCpuMs(pid);
        }
      } catch {
        // Not listening yet.
      }
      if (readyMs === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return {
      ready_ms: readyMs,
      cpu_ms: cpuMs,
      rss_idle_mb: procStatus(pid, 'VmRSS'),
      rss_peak_mb: procStatus(pid, 'VmHWM'),
      ...(phases ? { phases_ms: phases } : {}),
      ...(phasesCpu ? { phases_cpu_ms: phasesCpu } : {}),
    };
  } finally {
    if (exitCode === undefined) {
      child.kill('SIGTERM');
      await exited;
    }
  }
}
