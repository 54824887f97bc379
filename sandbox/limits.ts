import type { SandboxLimits } from './types.js';

/** RUNTIME.md's defaults; the kernel's config (`sandbox.*`) overrides them. */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  deadline_ms: 1000,
  memory_bytes: 32 * 1024 * 1024,
  stack_bytes: 1024 * 1024,
  output_bytes: 1024 * 1024,
  pushes: 1000,
});

/** `base` with each valid number of `over` (positive; pushes may be 0) put in its place. */
export function withLimits(base: Readonly<SandboxLimits>, over: Partial<SandboxLimits> | undefined): SandboxLimits {
  const merged = { ...base };
  for (const key of Object.keys(base) as Array<keyof SandboxLimits>) {
    const value = over?.[key];
    // Zero pushes is a real limit (a filter that may not emit); the others must be positive.
    if (typeof value === 'number' && Number.isFinite(value) && (value > 0 || (key === 'pushes' && value === 0)))
      merged[key] = Math.floor(value);
  }
  return merged;
}

/**
 * A job's effective limits: the pool's, overridden by the job's own. Stack and memory cannot
 * grow past the pool's: each worker's native stack and WebAssembly memory were sized for those.
 */
export function effectiveLimits(pool: Readonly<SandboxLimits>, job: Partial<SandboxLimits> | undefined): SandboxLimits {
  const merged = withLimits(pool, job);
  merged.stack_bytes = Math.min(merged.stack_bytes, pool.stack_bytes);
  merged.memory_bytes = Math.min(merged.memory_bytes, pool.memory_bytes);
  return merged;
}

/**
 * The worker thread's native stack, in MiB. QuickJS counts its own stack in the WebAssembly
 * shadow stack, but every interpreted call also nests WebAssembly frames on the thread's native
 * stack, several times larger; if that overflows first, V8 throws inside the interpreter and
 * corrupts it. 16× the interpreter's stack (measured: 8× is not enough for JSON.stringify of a
 * deeply nested array at 1 MiB) keeps QuickJS's own "stack overflow" the one that fires.
 */
export function workerStackMb(stackBytes: number): number {
  return Math.max(16, Math.ceil((stackBytes * 16) / (1024 * 1024)) + 4);
}

/**
 * Ceiling of a worker's WebAssembly memory, which is what actually bounds a run's heap: in this
 * build QuickJS cannot measure its allocations ("malloc_usable_size unavailable"), so its own
 * memory limit only stops single allocations larger than the limit. The ceiling is the run's
 * `memory_bytes` plus the 16 MiB the module starts with (its data, its stack, and the session
 * every run starts from, a few hundred KiB).
 */
export function workerMemoryCap(memoryBytes: number): number {
  return memoryBytes + 16 * 1024 * 1024;
}
