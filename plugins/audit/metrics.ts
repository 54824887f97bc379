import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { unsealedAgeSeconds } from './seal-store.js';

/** What the sealer reports as it works. */
export interface SealerMetrics {
  sealed(count: number): void;
  failed(): void;
}

/**
 * /metrics is scraped without credentials: the database is asked at most once per interval,
 * by one query at a time, and a scrape waits for it no longer than that.
 */
const AGE_REFRESH_MS = 1000;

/**
 * The sealer's health for operators. The age of the oldest unsealed record is the figure to
 * alert on: it grows while a transaction left open holds the seal horizon back, and while the
 * age cannot be measured (the database unreachable) it keeps growing from the last measurement,
 * so an alert on it still fires.
 */
export function auditMetrics(registry: Registry, db: Knex, logger: Logger): SealerMetrics {
  const sealed = new Counter({
    name: 'audit_records_sealed_total',
    help: "Audit records this instance chained into their tenant's hash chain.",
    registers: [registry],
  });
  const failures = new Counter({
    name: 'audit_seal_failures_total',
    help: 'Seal attempts and sweeps that failed and are retried (lock timeout, head moved by other sealers batch after batch, database away).',
    registers: [registry],
  });
  let age = 0;
  let measuredAt = Date.now();
  let attemptedAt = 0;
  let measuring: Promise<void> | undefined;

  function measure(): Promise<void> {
    attemptedAt = Date.now();
    return unsealedAgeSeconds(db).then(
      (seconds) => {
        age = seconds;
        measuredAt = Date.now();
      },
      (err: unknown) => logger.warn({ err }, 'audit seal age could not be measured'),
    );
  }

  new Gauge({
    name: 'audit_unsealed_age_seconds',
    help: 'Age of the first committed audit record not yet chained (by its record time, per tenant in chain order); 0 when every record is.',
    registers: [registry],
    async collect() {
      if (!measuring && Date.now() - attemptedAt >= AGE_REFRESH_MS)
        measuring = measure().finally(() => (measuring = undefined));
      if (measuring)
        await Promise.race([measuring, new Promise((resolve) => setTimeout(resolve, AGE_REFRESH_MS).unref())]);
      const stale = (Date.now() - measuredAt) / 1000;
      this.set(stale > (2 * AGE_REFRESH_MS) / 1000 ? age + stale : age);
    },
  });
  return { sealed: (count) => sealed.inc(count), failed: () => failures.inc() };
}
