import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { unsealedAgeSeconds } from './store.js';

/** What the sealer reports as it works. */
export interface SealerMetrics {
  sealed(count: number): void;
  failed(): void;
}

/** /metrics is scraped without credentials: the database is asked at most this often. */
const AGE_REFRESH_MS = 1000;

/**
 * The sealer's health for operators. The age of the oldest unsealed record is the figure to
 * alert on: it grows while a transaction left open holds the seal horizon back, or while the
 * sealer cannot reach the database.
 */
export function auditMetrics(registry: Registry, db: Knex, logger: Logger): SealerMetrics {
  const sealed = new Counter({ name: 'audit_records_sealed_total', help: 'Audit records this instance chained into their tenant\'s hash chain.', registers: [registry] });
  const failures = new Counter({ name: 'audit_seal_failures_total', help: 'Seal attempts that failed and are retried (lock timeout, database away).', registers: [registry] });
  let measuredAt = 0;
  new Gauge({
    name: 'audit_unsealed_age_seconds',
    help: 'Age of the oldest committed audit record not yet chained; 0 when every record is.',
    registers: [registry],
    async collect() {
      if (Date.now() - measuredAt < AGE_REFRESH_MS) return;
      try {
        this.set(await unsealedAgeSeconds(db));
        measuredAt = Date.now();
      } catch (err) {
        // The scrape still answers, with the last figure; the log says why it is stale.
        logger.warn({ err }, 'audit seal age could not be measured');
      }
    },
  });
  return { sealed: (count) => sealed.inc(count), failed: () => failures.inc() };
}
