import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { fromRoot } from '../kernel/paths.js';

export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** Starts a benchmark target (dist/bench/targets/<name>.js) in its own process. */
export async function startTarget(name: string, env: Record<string, string>): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [fromRoot('dist', 'bench', 'targets', `${name}.js`)], {
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
    ...(options.bodyFor ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: (options.bodyFor as () => string)() }) } : {}),
  };
  const connections = options.connections ?? 16;
  await autocannon({ url: base, connections, duration: 1, requests: [request] });
  const result = await autocannon({ url: base, connections, duration: options.seconds ?? 5, requests: [request] });
  return {
    rps: Math.round(result.requests.average),
    p99_ms: result.latency.p99,
    mean_ms: Math.round(result.latency.mean * 100) / 100,
    errors: result.errors + result.non2xx,
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
export async function pairedLatency(base: string, a: LoadOptions, b: LoadOptions, count: number): Promise<{ a: number; b: number }> {
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
