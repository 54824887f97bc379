import type { Knex } from 'knex';
import { GENESIS_HASH, canonicalContent, chainHash, type RecordContent } from './chain.js';
import { chainHead, chainSlice, type AuditRow } from './store.js';

export interface BrokenLink {
  seq: number;
  id: string | null;
  /** sequence: a record is missing; prev_hash: the link to the predecessor is wrong; hash: the record's content changed; head: the newest records are missing. */
  problem: 'sequence' | 'prev_hash' | 'hash' | 'head';
  expected: string;
  found: string;
}

export interface VerifyReport {
  tenant_id: string;
  valid: boolean;
  records: number;
  head: { seq: number; hash: string } | null;
  first_broken: BrokenLink | null;
}

const BATCH = 5000;

function contentOfRow(row: AuditRow): RecordContent {
  const { seq: _s, prev_hash: _p, hash: _h, ...rest } = row;
  return { ...rest, at: new Date(row.at).toISOString() };
}

/**
 * Recomputes a tenant's chain from its first record to the head that was current when the
 * check began (records appended meanwhile are left for the next check) and reports the first
 * broken link. The head row also catches records removed from the end of the chain.
 */
export async function verifyChain(db: Knex, tenantId: string): Promise<VerifyReport> {
  const head = await chainHead(db, tenantId);
  const report: VerifyReport = { tenant_id: tenantId, valid: true, records: 0, head: head ?? null, first_broken: null };
  if (!head) return report;
  let prevHash = GENESIS_HASH;
  let prevSeq = 0;
  const broken = (link: BrokenLink): VerifyReport => ({ ...report, valid: false, first_broken: link });
  for (;;) {
    const rows = await chainSlice(db, tenantId, prevSeq, head.seq, BATCH);
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== prevSeq + 1) return broken({ seq: prevSeq + 1, id: null, problem: 'sequence', expected: `record ${prevSeq + 1}`, found: `record ${seq}` });
      if (row.prev_hash !== prevHash) return broken({ seq, id: row.id, problem: 'prev_hash', expected: prevHash, found: row.prev_hash });
      const hash = chainHash(prevHash, seq, canonicalContent(contentOfRow(row)));
      if (hash !== row.hash) return broken({ seq, id: row.id, problem: 'hash', expected: hash, found: row.hash });
      prevHash = row.hash;
      prevSeq = seq;
      report.records += 1;
    }
    if (rows.length < BATCH) break;
  }
  if (prevSeq !== head.seq || prevHash !== head.hash) {
    return broken({ seq: prevSeq + 1, id: null, problem: 'head', expected: `head ${head.seq} ${head.hash}`, found: `last record ${prevSeq} ${prevHash}` });
  }
  return report;
}
