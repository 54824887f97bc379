import type { Knex } from 'knex';
import type { RecordContent } from './chain.js';

export interface AuditRow extends Omit<RecordContent, 'at'> {
  seq: string | number;
  at: Date | string;
  prev_hash: string;
  hash: string;
}

export interface AuditFilter {
  actor?: string;
  operation?: string;
  status?: string;
  resource?: string;
  since?: string;
  until?: string;
}

const OUTCOMES = new Set(['success', 'refused', 'failed', 'replayed', 'dry_run']);

/** The record as GET /audit shows it. */
export function toRecord(row: AuditRow): Record<string, unknown> {
  return {
    id: row.id,
    seq: Number(row.seq),
    time: new Date(row.at).toISOString(),
    tenant_id: row.tenant_id,
    operation: row.operation,
    method: row.method,
    path: row.path,
    resource_id: row.resource_id,
    status: row.status,
    outcome: row.outcome,
    error_code: row.error_code,
    request_id: row.request_id,
    idempotency_key: row.idempotency_key,
    actor: {
      subject_id: row.subject_id,
      credential_kind: row.credential_kind,
      credential_id: row.credential_id,
      actor_type: row.actor_type,
      agent_id: row.agent_id,
      actor_id: row.actor_id,
      actor_email: row.actor_email,
    },
    fields: row.fields,
    detail: row.detail,
    severity: row.severity,
    transport: row.transport,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * A page of one tenant's trail, newest first, keyset on seq (the primary key after tenant_id),
 * so page 1,000,000 costs what page 1 does.
 */
export async function listRecords(db: Knex | Knex.Transaction, tenantId: string, filter: AuditFilter, fetch: number, afterSeq?: number): Promise<AuditRow[]> {
  const query = db('audit_records').where('tenant_id', tenantId).orderBy('seq', 'desc').limit(fetch);
  if (afterSeq !== undefined) query.andWhere('seq', '<', afterSeq);
  if (filter.operation) query.andWhere('operation', filter.operation);
  if (filter.resource) query.andWhere('resource_id', filter.resource);
  if (filter.status) {
    if (OUTCOMES.has(filter.status)) query.andWhere('outcome', filter.status);
    else query.andWhere('status', Number(filter.status));
  }
  if (filter.actor) {
    const actor = filter.actor;
    query.andWhere((q) => q.where('subject_id', actor).orWhere('actor_id', actor).orWhere('agent_id', actor).orWhere('actor_email', actor));
  }
  if (filter.since) query.andWhere('at', '>=', new Date(filter.since));
  if (filter.until) query.andWhere('at', '<', new Date(filter.until));
  return (await query) as AuditRow[];
}

/** Records of a tenant in chain order, seq in (afterSeq, uptoSeq], at most `limit`. */
export async function chainSlice(db: Knex, tenantId: string, afterSeq: number, uptoSeq: number, limit: number): Promise<AuditRow[]> {
  return (await db('audit_records').where('tenant_id', tenantId).andWhere('seq', '>', afterSeq).andWhere('seq', '<=', uptoSeq).orderBy('seq', 'asc').limit(limit)) as AuditRow[];
}

export async function chainHead(db: Knex, tenantId: string): Promise<{ seq: number; hash: string } | undefined> {
  const row = (await db('audit_heads').where('tenant_id', tenantId).first('seq', 'hash')) as { seq: string | number; hash: string } | undefined;
  return row && { seq: Number(row.seq), hash: row.hash };
}
