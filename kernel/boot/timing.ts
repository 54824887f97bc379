import { performance } from 'node:perf_hooks';
import type { BootPhaseName } from './phases.js';

/** Milliseconds each boot phase (kernel/boot/phases.ts) took, in the order they ran. */
export type BootTimings = Partial<Record<BootPhaseName, number>>;

/** The process's CPU milliseconds so far, every thread counted (V8's compilers, the thread pool). */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Times the boot's phases so the remaining cost stays visible (the `serving` log line and the
 * `boot` bench print them). `performance.now()` counts from the process's start, so the first
 * mark also tells how long loading the modules took. The CPU time of each phase is kept beside
 * its wall time: on a machine busy with other work the wall time grows with the load, the CPU
 * time far less, so the two together tell a slow phase from a starved one.
 */
export function createBootTimer(): {
  /** Ends a phase of BOOT_PHASES (the only names it takes); one marked twice adds up. */
  mark(phase: BootPhaseName): void;
  readonly timings: BootTimings;
  readonly cpu: BootTimings;
} {
  const timings: BootTimings = { modules: Math.round(performance.now()) };
  let lastCpu = cpuMs();
  const cpu: BootTimings = { modules: Math.round(lastCpu) };
  let last = performance.now();
  return {
    timings,
    cpu,
    mark(phase) {
      const now = performance.now();
      const nowCpu = cpuMs();
      timings[phase] = Math.round((timings[phase] ?? 0) + now - last);
      cpu[phase] = Math.round((cpu[phase] ?? 0) + nowCpu - lastCpu);
      last = now;
      lastCpu = nowCpu;
    },
  };
}
