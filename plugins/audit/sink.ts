import type { Knex } from 'knex';
import type { AuditEntry, AuditSink } from '../../kernel/types.js';
import { GENESIS_HASH, canonicalContent, contentOf } from './chain.js';

const COLUMNS = [
  'tenant_id', 'id', 'at', 'operation', 'method', 'path', 'resource_id', 'status', 'outcome', 'error_code', 'request_id', 'idempotency_key',
  'subject_id', 'credential_kind', 'credential_id', 'actor_type', 'agent_id', 'actor_id', 'actor_email', 'fields', 'detail', 'severity', 'transport',
] as const;

/*
 * One round trip per record: lock the tenant's head row (FOR UPDATE waits for, then sees, the
 * latest head), insert the record chained to it with its hash computed by the database, and
 * move the head. Concurrent appends of one tenant queue on the head row; other tenants never
 * wait. The lock is held only until the surrounding transaction commits.
 */
const APPEND = `
WITH head AS (
  SELECT seq, hash FROM audit_heads WHERE tenant_id = ? FOR UPDATE
), rec AS (
  INSERT INTO audit_records (${COLUMNS.join(', ')}, seq, prev_hash, hash)
  SELECT ${COLUMNS.map((c) => (c === 'fields' || c === 'detail' ? '?::jsonb' : c === 'status' ? '?::integer' : c === 'at' ? '?::timestamptz' : '?')).join(', ')},
         head.seq + 1, head.hash,
         encode(sha256(convert_to(head.hash || '|' || (head.seq + 1)::text || '|' || ?::text, 'UTF8')), 'hex')
  FROM head
  RETURNING seq, hash
)
UPDATE audit_heads SET seq = rec.seq, hash = rec.hash FROM rec WHERE audit_heads.tenant_id = ?
RETURNING audit_heads.seq`;

/** Appends records to the per-tenant hash chain, in whatever transaction the kernel passes. */
export function createAuditSink(): AuditSink {
  return {
    async write(db: Knex | Knex.Transaction, entry: AuditEntry) {
      const content = contentOf(entry);
      const values = COLUMNS.map((c) => (c === 'fields' || c === 'detail' ? JSON.stringify(content[c]) : content[c]));
      const bindings = [content.tenant_id, ...values, canonicalContent(content), content.tenant_id];
      let result = await db.raw(APPEND, bindings);
      if ((result.rows as unknown[]).length === 0) {
        // The tenant's first record: create its head (a concurrent first writer may win), then append.
        await db.raw('INSERT INTO audit_heads (tenant_id, seq, hash) VALUES (?, 0, ?) ON CONFLICT (tenant_id) DO NOTHING', [content.tenant_id, GENESIS_HASH]);
        result = await db.raw(APPEND, bindings);
        if ((result.rows as unknown[]).length === 0) throw new Error(`audit head of tenant ${content.tenant_id} is missing`);
      }
    },
  };
}
