import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../kernel/paths.js';
import { freePort, procCpuMs } from './harness.js';

/** How long the first `npm start` may wait for /ready before the bench gives up on it. */
const START_TIMEOUT_MS = 180_000;

export interface FirstStartFigures {
  /** `npm run prepare`, the script `npm ci` and `npm install` run once the packages are in. */
  prepare_ms?: number;
  /** From spawning `npm start` to GET /ready = 200. */
  ready_ms: number;
  /** CPU npm and the kernel had used by then: the part of ready_ms a busy machine cannot inflate. */
  cpu_ms: number;
  /** Whether that start compiled or bundled anything before it served. */
  built_at_start: boolean;
}

/** npm as the bench itself was started (npm run bench), else the one on the PATH. */
function npm(args: string[]): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli && /\.[cm]?js$/.test(cli) ? [process.execPath, [cli, ...args]] : ['npm', args];
}

/**
 * A fresh clone of this checkout's commit (what is not committed is not measured) whose node_modules links every installed package but
 * keeps a cache of its own (node_modules/.cache: the embedded database's kept clusters), as a
 * fresh `npm ci` leaves it, without downloading or unpacking anything.
 */
function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-first-start-'));
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: fromRoot(), encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '-q', '--no-checkout', fromRoot(), dir]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', commit]);
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(fromRoot('node_modules'))) {
    if (entry !== '.cache') symlinkSync(fromRoot('node_modules', entry), join(modules, entry));
  }
  return dir;
}

/** CPU of `npm start` and of the processes it started (the kernel: the script execs node). */
function treeCpuMs(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // Gone already: only its own time is left to read.
  }
  return procCpuMs(pid) + children.reduce((sum, child) => sum + treeCpuMs(child), 0);
}

/** Stops `npm start` and the kernel under it (their own process group, made by spawn's `detached`). */
async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/**
 * The first `npm start` of a fresh clone, after the install's `prepare` (or without it when
 * `withPrepare` is false: what a first start cost before the install did the work ahead).
 */
export async function firstStart(
  env: Record<string, string | undefined>,
  withPrepare: boolean,
): Promise<FirstStartFigures> {
  const dir = freshClone();
  try {
    let prepareMs: number | undefined;
    if (withPrepare) {
      const began = Date.now();
      const [command, args] = npm(['run', '--silent', 'prepare']);
      const result = spawnSync(command, args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`npm run prepare failed: ${result.stderr.slice(-1000)}`);
      prepareMs = Date.now() - began;
    }
    const port = await freePort();
    const [command, args] = npm(['start']);
    const began = Date.now();
    const child = spawn(command, args, {
      cwd: dir,
      // The data directory is the default one, ./data of the clone, new like the rest of it.
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    try {
      let readyMs: number | undefined;
      let cpuMs = 0;
      while (readyMs === undefined) {
        if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${stderr.trim()}`);
        if (Date.now() - began > START_TIMEOUT_MS) throw new Error(`not ready within ${START_TIMEOUT_MS / 1000} s`);
        try {
          const res = await fetch(`http://127.0.0.1:${port}/ready`);
          await res.arrayBuffer();
          if (res.status === 200) {
            readyMs = Date.now() - began;
            cpuMs = child.pid === undefined ? 0 : treeCpuMs(child.pid);
          }
        } catch {
          // Not listening yet.
        }
        if (readyMs === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return {
        ...(prepareMs === undefined ? {} : { prepare_ms: prepareMs }),
        ready_ms: readyMs,
        cpu_ms: cpuMs,
        // ensure-build.mjs and ensure-assets.mjs announce each build they run.
        built_at_start: /^building \(/m.test(stderr),
      };
    } finally {
      await stop(child, exited);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
