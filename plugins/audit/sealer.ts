import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SealerMetrics } from './metrics.js';
import { GENESIS_HASH, canonicalContent, chainHash, contentOfRow } from './chain.js';
import { advanceClock, appendSeals, nextBatch, tenantsToSeal, type SealRow } from './seal-store.js';

export interface SealerOptions {
  /** How long the sealer waits after a commit, gathering the records of a burst into one batch. */
  delayMs: number;
  /** How often every tenant is checked for records left unsealed (by an instance that died, say): the sweep job's interval. */
  sweepMs: number;
  /** Records chained per batch. */
  batch: number;
  /** How long a seal waits for a head another transaction holds before it gives up (the tenant is tried again later). */
  lockTimeoutMs: number;
}

export interface Sealer {
  /** The tenant has newly committed records: chain them shortly. */
  soon(tenantId: string): void;
  /** Chains every committed record of the tenant now. */
  now(tenantId: string): Promise<void>;
  /** Finds the tenants with records nobody chained and chains them shortly (run as a job, see workers.ts). */
  sweep(): Promise<void>;
  start(): Promise<void>;
  /** Stops the timer and chains what is pending before the database goes away. */
  stop(): Promise<void>;
}

const RETRY_MS = 1000;
/** Batches tried at once when another sealer keeps moving the head first; then the tenant is retried later. */
const ATTEMPTS = 10;
/**
 * While records keep coming, the sealer waits this many times as long as its last flush took
 * before the next one (never less than the delay): it is busy at most a tenth of the time. A
 * batch costs two statements whatever its size, so under a stream of writes a fixed short delay
 * had the sealer send about as many statements as the writers did; spaced by its own cost, each
 * batch chains more records for the same two statements. On a quiet database a flush takes a
 * few milliseconds, so a lone record is still chained after the delay.
 */
const SPACING = 9;
/** The spaced delay's bound: a long flush (a backlog of many batches, a slow database) does not hold the next one back for long. */
const MAX_SPACED_MS = 250;

/**
 * Extends a tenant's hash chain over its committed records, after they commit, in batches.
 * Writers never touch the chain, so a tenant's writes run in parallel. A batch is two statements
 * and no transaction: one read of the head, the horizon and the records after the head below it
 * (one snapshot), and one write of the seals that moves the head only if it is still where the
 * read found it. Sealers of all instances (and this instance's own flush and `now`) may seal
 * every tenant: when two race, one write wins and the other writes nothing and reads again.
 * Records are chained in (xact, id) order, and only below the horizon of finished transactions:
 * a record whose transaction is still running cannot later appear behind the head.
 */
export function createSealer(db: Knex, logger: Logger, options: SealerOptions, metrics: SealerMetrics): Sealer {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /** Chains up to one batch: how many records it chained, and whether records wait behind the horizon. */
  async function sealBatch(tenantId: string): Promise<{ sealed: number; heldBack: boolean }> {
    for (let attempt = 1; ; attempt++) {
      const { head, rows, heldBack } = await nextBatch(db, tenantId, GENESIS_HASH, options.batch);
      let { seq, hash } = head;
      const seals: SealRow[] = rows.map((row) => {
        const prev = hash;
        seq += 1;
        hash = chainHash(prev, seq, canonicalContent(contentOfRow(row)));
        return { tenant_id: tenantId, xact: Number(row.xact), record_id: row.id, seq, prev_hash: prev, hash };
      });
      if (await appendSeals(db, tenantId, head.seq, seals, options.lockTimeoutMs)) {
        if (seals.length > 0) metrics.sealed(seals.length);
        return { sealed: seals.length, heldBack };
      }
      // Another sealer moved the head since the read: what it chained is read back as the new head.
      if (attempt === ATTEMPTS)
        throw new Error(`audit head of tenant ${tenantId} moved under ${ATTEMPTS} batches in a row`);
    }
  }

  /** Chains every committed record it can; true when records of the tenant wait behind the horizon. */
  async function sealAll(tenantId: string): Promise<boolean> {
    for (;;) {
      const { sealed, heldBack } = await sealBatch(tenantId);
      // A full batch was not cut at the horizon: more may follow.
      if (sealed < options.batch) return heldBack;
    }
  }

  function schedule(delay: number): void {
    if (stopped || timer || running) return;
    timer = setTimeout(() => {
      timer = undefined;
      const started = performance.now();
      running = flush().then((failed) => {
        running = undefined;
        // A tenant that failed (a lock timeout, races for its head lost again and again, the database
        // away), or whose records wait behind a transaction still running (anywhere on the server),
        // is tried again, not at once; records that came meanwhile wait for the spaced delay.
        if (pending.size > 0)
          schedule(
            failed
              ? RETRY_MS
              : Math.max(options.delayMs, Math.min(MAX_SPACED_MS, SPACING * (performance.now() - started))),
          );
      });
    }, delay);
    timer.unref();
  }

  /** Chains what it can; true when records of the tenant wait behind the horizon (it stays pending). */
  async function sealAllOrHoldBack(tenantId: string): Promise<boolean> {
    if (!(await sealAll(tenantId))) return false;
    pending.add(tenantId);
    return true;
  }

  /** Seals the pending tenants; true when one failed or was held back (it stays pending, its records committed and unsealed). */
  async function flush(): Promise<boolean> {
    const tenants = [...pending];
    pending.clear();
    let failed = false;
    for (const tenantId of tenants) {
      try {
        if (await sealAllOrHoldBack(tenantId)) failed = true;
      } catch (err) {
        logger.warn({ err, tenantId }, 'audit records could not be sealed yet');
        metrics.failed();
        failed = true;
        pending.add(tenantId);
      }
    }
    return failed;
  }

  async function sweep(): Promise<void> {
    try {
      for (const tenantId of await tenantsToSeal(db)) pending.add(tenantId);
    } catch (err) {
      // Counted with the seal failures; the job runner logs it and retries.
      metrics.failed();
      throw err;
    }
    if (pending.size > 0) schedule(0);
  }

  return {
    soon(tenantId) {
      pending.add(tenantId);
      schedule(options.delayMs);
    },
    async now(tenantId) {
      try {
        if (await sealAllOrHoldBack(tenantId)) schedule(RETRY_MS);
      } catch (err) {
        // Counted and retried like a failure of the timer's flush; the caller still hears of it.
        metrics.failed();
        pending.add(tenantId);
        schedule(RETRY_MS);
        throw err;
      }
    },
    sweep,
    async start() {
      const offset = await advanceClock(db);
      if (offset !== 0)
        logger.warn(
          { offset },
          'audit transaction ids restarted below the sealed ones (a restored database?); new records are stamped above them',
        );
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
      await flush();
    },
  };
}
