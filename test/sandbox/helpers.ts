import { createSandbox, type SandboxOptions } from '../../sandbox/index.js';
import type { Sandbox, SandboxJob, SandboxResult } from '../../sandbox/types.js';

/** A job with `main.js` (and any other files), text input `body`, for tenant `tenantId`. */
export function job(files: Record<string, string> | string, extra: Partial<SandboxJob> = {}): SandboxJob {
  return {
    tenantId: 'tenant-a',
    files: typeof files === 'string' ? { 'main.js': files } : files,
    input: { body: null, headers: {}, key: null },
    ...extra,
  };
}

export function newSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandbox({ poolSize: 2, ...options });
}

/** Runs and measures the wall time the caller waited. */
export async function timed(sandbox: Sandbox, j: SandboxJob): Promise<{ result: SandboxResult; ms: number }> {
  const started = performance.now();
  const result = await sandbox.run(j);
  return { result, ms: performance.now() - started };
}

/**
 * Counts host timer ticks while `work` runs: the host's event loop stays free only if the
 * ticks keep coming (a script run on the main thread would starve them).
 */
export async function whileTicking<T>(
  work: () => Promise<T>,
  everyMs = 20,
): Promise<{ value: T; ticks: number; longestGapMs: number }> {
  let ticks = 0;
  let last = performance.now();
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, everyMs);
  try {
    const value = await work();
    return { value, ticks, longestGapMs };
  } finally {
    clearInterval(timer);
  }
}
