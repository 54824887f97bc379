import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { GENESIS_HASH, canonicalContent, chainHash, contentOfRow } from './chain.js';
import type { Sealer } from './sealer.js';
import { chainHead, chainSlice, countSealsBeyond, countUnsealed } from './seal-store.js';
import type { Position } from './store.js';

export interface BrokenLink {
  seq: number;
  id: string | null;
  /**
   * sequence: a record is missing; unsealed: a record inside the chained range has no seal
   * (inserted, moved, or its seal removed); prev_hash: the link to the predecessor is wrong;
   * hash: the record's content changed; head: the newest records are missing.
   */
  problem: 'sequence' | 'unsealed' | 'prev_hash' | 'hash' | 'head';
  expected: string;
  found: string;
}

export interface VerifyReport {
  tenant_id: string;
  valid: boolean;
  records: number;
  /** Committed records not chained yet (a transaction still running elsewhere holds them back). */
  unsealed: number;
  head: { seq: number; hash: string } | null;
  first_broken: BrokenLink | null;
}

const BATCH = 5000;

/**
 * Chains what has committed, then recomputes the tenant's chain from its first record to the
 * head and reports the first broken link. Records and seals are walked together in chain
 * order; the head row also catches records removed from the end of the chain.
 */
export async function verifyChain(
  db: Knex,
  sealer: Sealer,
  tenantId: string,
  logger: Pick<Logger, 'warn'>,
): Promise<VerifyReport> {
  try {
    await sealer.now(tenantId);
  } catch (err) {
    // The check still runs over what is chained; what is not is counted as unsealed.
    logger.warn({ err, tenantId }, 'audit records could not be sealed before verification');
  }
  const head = await chainHead(db, tenantId);
  const report: VerifyReport = {
    tenant_id: tenantId,
    valid: true,
    records: 0,
    unsealed: await countUnsealed(db, tenantId, head),
    head: head ? { seq: head.seq, hash: head.hash } : null,
    first_broken: null,
  };
  if (!head) return report;
  let prevHash = GENESIS_HASH;
  let prevSeq = 0;
  let after: Position | null = null;
  const broken = (link: BrokenLink): VerifyReport => ({ ...report, valid: false, first_broken: link });
  while (head.last) {
    const rows = await chainSlice(db, tenantId, after, head.last, BATCH);
    for (const row of rows) {
      if (row.seq === null || row.prev_hash === null || row.hash === null) {
        return broken({
          seq: prevSeq + 1,
          id: row.id,
          problem: 'unsealed',
          expected: `a seal for record ${row.id}`,
          found: 'none',
        });
      }
      const seq = Number(row.seq);
      if (seq !== prevSeq + 1)
        return broken({
          seq: prevSeq + 1,
          id: null,
          problem: 'sequence',
          expected: `record ${prevSeq + 1}`,
          found: `record ${seq}`,
        });
      if (row.prev_hash !== prevHash)
        return broken({ seq, id: row.id, problem: 'prev_hash', expected: prevHash, found: row.prev_hash });
      const hash = chainHash(prevHash, seq, canonicalContent(contentOfRow(row)));
      if (hash !== row.hash) return broken({ seq, id: row.id, problem: 'hash', expected: hash, found: row.hash });
      prevHash = row.hash;
      prevSeq = seq;
      report.records += 1;
    }
    const last = rows[rows.length - 1];
    if (rows.length < BATCH || !last) break;
    after = { xact: Number(last.xact), id: last.id };
  }
  if (prevSeq !== head.seq || prevHash !== head.hash) {
    return broken({
      seq: prevSeq + 1,
      id: null,
      problem: 'head',
      expected: `head ${head.seq} ${head.hash}`,
      found: `last record ${prevSeq} ${prevHash}`,
    });
  }
  const beyond = await countSealsBeyond(db, tenantId, head);
  if (beyond > 0)
    return broken({
      seq: head.seq + 1,
      id: null,
      problem: 'head',
      expected: `head ${head.seq} as the last seal`,
      found: `${beyond} seals beyond it`,
    });
  return report;
}
