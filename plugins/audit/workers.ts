import type { JobSpec } from '../../kernel/plugin/api.js';
import type { Sealer, SealerOptions } from './sealer.js';

/**
 * The audit plugin's background work. Sealing after a commit stays in the instance that wrote
 * the records (it knows the tenant); the sweep for records nobody chained (their instance died
 * between commit and seal) runs on one instance at a time, every `sweep_interval_seconds`.
 */
export function auditJobs(sealer: Sealer, options: SealerOptions): JobSpec[] {
  return [{ name: 'audit.sweep', intervalMs: options.sweepMs, run: () => sealer.sweep() }];
}
