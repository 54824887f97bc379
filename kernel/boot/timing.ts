import { performance } from 'node:perf_hooks';

/** Milliseconds each boot phase took, in the order they ran (`modules` is the process's own start up to the boot). */
export type BootTimings = Record<string, number>;

/**
 * Times the boot's phases so the remaining cost stays visible (the `serving` log line and the
 * `boot` bench print them). `performance.now()` counts from the process's start, so the first
 * mark also tells how long loading the modules took.
 */
export function createBootTimer(): { mark(phase: string): void; readonly timings: BootTimings } {
  const timings: BootTimings = { modules: Math.round(performance.now()) };
  let last = performance.now();
  return {
    timings,
    mark(phase) {
      const now = performance.now();
      timings[phase] = Math.round((timings[phase] ?? 0) + now - last);
      last = now;
    },
  };
}
