import { Counter, Histogram, type Registry } from 'prom-client';

export interface JobMetrics {
  runs: Counter<'job' | 'outcome'>;
  duration: Histogram<'job'>;
  lost: Counter<'job'>;
}

/** Labelled by job name only (a fixed set); keys would make the series unbounded. */
export function jobMetrics(registry: Registry): JobMetrics {
  return {
    runs: new Counter({
      name: 'kernel_job_runs_total',
      help: 'Job runs on this instance by outcome: success, failure (logged and retried with backoff) or aborted (lease lost or shutdown).',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'kernel_job_run_duration_seconds',
      help: 'How long job runs took on this instance.',
      labelNames: ['job'],
      registers: [registry],
    }),
    lost: new Counter({
      name: 'kernel_job_leases_lost_total',
      help: 'Job leases this instance lost while holding them (another instance took over, or renewal failed until the lease lapsed).',
      labelNames: ['job'],
      registers: [registry],
    }),
  };
}
