import type { Knex } from 'knex';
import { RECORD_COLUMNS, type RecordContent } from './chain.js';
import { withSeals } from './seal-store.js';

/** A record as stored: its content and the id of the transaction that wrote it. */
export interface AuditRow extends Omit<RecordContent, 'at'> {
  xact: string | number;
  at: Date | string;
}

/** A record with its seal; the seal columns are null until the sealer has chained it. */
export interface SealedRow extends AuditRow {
  seq: string | number | null;
  prev_hash: string | null;
  hash: string | null;
}

/** Where a record sits in its tenant's trail: (xact, id) orders records and keys their seals. */
export interface Position {
  xact: number;
  id: string;
}

export interface ChainHead {
  seq: number;
  hash: string;
  /** The last sealed record; null while nothing is sealed. */
  last: Position | null;
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

const INSERT = `INSERT INTO audit_records (${RECORD_COLUMNS.join(', ')}) VALUES (${RECORD_COLUMNS.map((c) =>
  c === 'fields' || c === 'detail' ? '?::jsonb' : c === 'status' ? '?::integer' : c === 'at' ? '?::timestamptz' : '?',
).join(', ')})`;

/** The statement that stores one record, with its bindings (the benchmark's floor reuses it). */
export function recordInsert(content: RecordContent): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: INSERT,
    bindings: RECORD_COLUMNS.map((c) =>
      c === 'fields' || c === 'detail' ? JSON.stringify(content[c]) : content[c],
    ) as Knex.RawBinding[],
  };
}

/** Writes one record, unchained: a plain insert, so concurrent writers of a tenant never wait on each other. */
export async function insertRecord(db: Knex | Knex.Transaction, content: RecordContent): Promise<void> {
  const { sql, bindings } = recordInsert(content);
  await db.raw(sql, bindings);
}

/** The record as GET /audit shows it. */
export function toRecord(row: SealedRow): Record<string, unknown> {
  return {
    id: row.id,
    seq: row.seq === null ? null : Number(row.seq),
    txid: Number(row.xact),
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
 * A page of one tenant's trail, newest first, keyset on (xact, id) — the primary key after
 * tenant_id — so page 1,000,000 costs what page 1 does.
 */
export async function listRecords(
  db: Knex | Knex.Transaction,
  tenantId: string,
  filter: AuditFilter,
  fetch: number,
  after?: Position,
): Promise<SealedRow[]> {
  const query = withSeals(db)
    .where('r.tenant_id', tenantId)
    .orderBy([
      { column: 'r.xact', order: 'desc' },
      { column: 'r.id', order: 'desc' },
    ])
    .limit(fetch);
  if (after) query.andWhereRaw('(r.xact, r.id) < (?, ?)', [after.xact, after.id]);
  if (filter.operation) query.andWhere('r.operation', filter.operation);
  if (filter.resource) query.andWhere('r.resource_id', filter.resource);
  if (filter.status) {
    if (OUTCOMES.has(filter.status)) query.andWhere('r.outcome', filter.status);
    else query.andWhere('r.status', Number(filter.status));
  }
  if (filter.actor) {
    const actor = filter.actor;
    query.andWhere((q) =>
      q
        .where('r.subject_id', actor)
        .orWhere('r.actor_id', actor)
        .orWhere('r.agent_id', actor)
        .orWhere('r.actor_email', actor),
    );
  }
  if (filter.since) query.andWhere('r.at', '>=', new Date(filter.since));
  if (filter.until) query.andWhere('r.at', '<', new Date(filter.until));
  return (await query) as SealedRow[];
}
