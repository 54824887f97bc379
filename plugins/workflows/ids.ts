import { randomBytes } from 'node:crypto';

/** A run id that sorts by creation time (`run_` + base-36 milliseconds + random hex), so runs page in start order. */
export function runId(now = Date.now()): string {
  return `run_${now.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}
