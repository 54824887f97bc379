import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SealerMetrics } from './metrics.js';
import { GENESIS_HASH, canonicalContent, chainHash, contentOfRow } from './chain.js';
import { advanceClock, createHead, lockHead, recordsToSeal, tenantsToSeal, writeSeals, type SealRow } from './store.js';

export interface SealerOptions {
  /** How long the sealer waits after a commit, gathering the records of a burst into one batch. */
  delayMs: number;
  /** How often every tenant is checked for records left unsealed (by an instance that died, say): the sweep job's interval. */
  sweepMs: number;
  /** Records chained per transaction. */
  batch: number;
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

const LOCK_TIMEOUT_MS = 5000;
const RETRY_MS = 1000;
/** PostgreSQL's lock_not_available: a NOWAIT lock found the row held. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Extends a tenant's hash chain over its committed records, after they commit, in batches.
 * Writers never touch the chain, so a tenant's writes run in parallel; sealers of all instances
 * take turns on the tenant's head row, and whichever holds it chains whatever is committed,
 * so every instance may seal every tenant. Records are chained in (xact, id) order, and only
 * below the horizon of finished transactions: a record whose transaction is still running
 * cannot later appear behind the head.
 */
export function createSealer(db: Knex, logger: Logger, options: SealerOptions, metrics: SealerMetrics): Sealer {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** Tenants whose last batch found records behind the horizon: chained on a retry, not at the next sweep. */
  const heldBack = new Set<string>();

  /**
   * Chains up to one batch; returns how many records it chained. The head is usually free, so a
   * first attempt takes it without waiting (one statement fewer than setting a lock timeout);
   * when another instance holds it, or the tenant has no head yet, the batch runs again waiting
   * for the head at most LOCK_TIMEOUT_MS.
   */
  async function sealBatch(tenantId: string): Promise<number> {
    try {
      const sealed = await sealBatchWith(tenantId, false);
      if (sealed !== undefined) return sealed;
    } catch (err) {
      if ((err as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw err;
    }
    return (await sealBatchWith(tenantId, true)) as number;
  }

  /** One batch; without `wait`, undefined when the tenant has no head yet (creating it may wait on another instance creating it). */
  async function sealBatchWith(tenantId: string, wait: boolean): Promise<number | undefined> {
    return db.transaction(async (trx) => {
      // Another instance sealing the tenant holds its head briefly; one that hangs must not stall
      // this instance's other tenants or its shutdown (the tenant is tried again later).
      if (wait) await trx.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
      let head = await lockHead(trx, tenantId, { nowait: !wait });
      if (!head) {
        if (!wait) return undefined;
        await createHead(trx, tenantId, GENESIS_HASH);
        head = await lockHead(trx, tenantId);
        if (!head) throw new Error(`audit head of tenant ${tenantId} could not be created`);
      }
      const { rows, heldBack: waiting } = await recordsToSeal(trx, tenantId, head.last, head.horizon, options.batch);
      if (waiting) heldBack.add(tenantId);
      let { seq, hash } = head;
      const seals: SealRow[] = rows.map((row) => {
        const prev = hash;
        seq += 1;
        hash = chainHash(prev, seq, canonicalContent(contentOfRow(row)));
        return { tenant_id: tenantId, xact: Number(row.xact), record_id: row.id, seq, prev_hash: prev, hash };
      });
      await writeSeals(trx, tenantId, seals);
      trx.executionPromise.then(() => metrics.sealed(seals.length), () => undefined);
      return seals.length;
    // The horizon argument needs each statement's own snapshot.
    }, { isolationLevel: 'read committed' });
  }

  async function sealAll(tenantId: string): Promise<void> {
    while ((await sealBatch(tenantId)) === options.batch);
  }

  function schedule(delay: number): void {
    if (stopped || timer || running) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = flush().then((failed) => {
        running = undefined;
        // A tenant that failed (a lock timeout, the database away), or whose records wait behind a
        // transaction still running (anywhere on the server), is tried again, not at once.
        if (pending.size > 0) schedule(failed ? RETRY_MS : options.delayMs);
      });
    }, delay);
    timer.unref();
  }

  /** Chains what it can; true when records of the tenant wait behind the horizon (it stays pending). */
  async function sealAllOrHoldBack(tenantId: string): Promise<boolean> {
    heldBack.delete(tenantId);
    await sealAll(tenantId);
    if (!heldBack.has(tenantId)) return false;
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
      if (await sealAllOrHoldBack(tenantId)) schedule(RETRY_MS);
    },
    sweep,
    async start() {
      const offset = await advanceClock(db);
      if (offset !== 0) logger.warn({ offset }, 'audit transaction ids restarted below the sealed ones (a restored database?); new records are stamped above them');
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
