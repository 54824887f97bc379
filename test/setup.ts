// Mocha root hooks shared by every test file.
import { appendFileSync } from 'node:fs';
import type { Context } from 'mocha';

process.env.RUNTIME_LOG_LEVEL ??= 'silent';

/**
 * TEST_TIMINGS=<file>: each test file's wall time and its worker's CPU time (not that of the
 * processes it starts) appended to that file as a JSON line, to see where the suite's minutes go.
 * In parallel mode the root hooks run once per file.
 */
const timings = process.env.TEST_TIMINGS;
let started = 0;
let cpuAtStart = process.cpuUsage();

export const mochaHooks = timings
  ? {
      beforeAll(): void {
        started = Date.now();
        cpuAtStart = process.cpuUsage();
      },
      afterAll(this: Context): void {
        const file = this.test?.parent?.suites[0]?.file ?? 'unknown';
        const cpu = process.cpuUsage(cpuAtStart);
        const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
        appendFileSync(timings, `${JSON.stringify({ file, ms: Date.now() - started, cpu_ms: cpuMs })}\n`);
      },
    }
  : {};
