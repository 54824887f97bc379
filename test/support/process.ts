import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../kernel/paths.js';

/** A server (or command) running as a real child process, with everything it printed so far. */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** stdout and stderr, interleaved as they arrived. */
  output(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

export interface RunningServer extends ServerProcess {
  url: string;
  /** The pid of the node process that serves (from its "serving" log line); npm's pid is child.pid. */
  pid: number;
}

/** A fresh, empty data directory for the embedded database. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'runtime-data-'));
}

/**
 * The environment of a local-profile server on `dataDir`, on a random port, logging at info (the
 * "serving" line names its url and pid). DATABASE_URL is removed so the embedded database is used.
 */
export function localEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    RUNTIME_DATA_DIR: dataDir,
    RUNTIME_LOG_LEVEL: 'info',
    RUNTIME_PROFILE: 'local',
    RUNTIME_ADMIN_PASSWORD: 'process-test-password-1',
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.RUNTIME_PLUGINS;
  return env;
}

/** Spawns `command args` in the project root and records its output. */
export function spawnProcess(command: string, args: string[], env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves once the process has logged "serving"; rejects if it exits first or takes over 60 s. */
export async function untilServing(proc: ServerProcess): Promise<RunningServer> {
  return new Promise<RunningServer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving" line in 60 s:\n${proc.output()}`)), 60000);
    const look = (): void => {
      const line = proc
        .output()
        .split('\n')
        .find((l) => l.includes('"msg":"serving"'));
      if (!line) return;
      clearTimeout(timer);
      proc.child.stdout.off('data', look);
      const logged = JSON.parse(line) as { url: string; pid: number };
      resolve({ ...proc, url: logged.url, pid: logged.pid });
    };
    proc.child.stdout.on('data', look);
    look();
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving:\n${proc.output()}`));
    });
  });
}

/** `node dist/kernel/main.js` (the compiled entry) on the local profile. */
export function startNode(dataDir: string, extra: Record<string, string> = {}): Promise<RunningServer> {
  return untilServing(
    spawnProcess(process.execPath, [join(PROJECT_ROOT, 'dist', 'kernel', 'main.js')], localEnv(dataDir, extra)),
  );
}

/** Whether a process still runs (a zombie waiting to be reaped does not). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Whether anything answers HTTP at `url`. */
export async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health`);
    return true;
  } catch {
    return false;
  }
}

/** Ends a process that a failed test left running (SIGKILL, by its pid only). */
export function killIfRunning(pid: number | undefined): void {
  if (pid !== undefined && running(pid)) process.kill(pid, 'SIGKILL');
}
