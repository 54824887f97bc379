import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../kernel/plugin/api.js';
import type { AuditEntry } from '../../kernel/types.js';

/** The predecessor hash of a tenant's first record. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hashed content of a record: every column the writer stored, except `xact`. Order is bound
 * another way: each seal is keyed by its record's (xact, id), and the verifier walks records in
 * that order, so a record moved in the order no longer meets its seal.
 */
export interface RecordContent {
  tenant_id: string;
  id: string;
  at: string;
  operation: string;
  method: string;
  path: string;
  resource_id: string | null;
  status: number;
  outcome: string;
  error_code: string | null;
  request_id: string;
  idempotency_key: string | null;
  subject_id: string | null;
  credential_kind: string | null;
  credential_id: string | null;
  actor_type: string;
  agent_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  fields: Record<string, unknown>;
  detail: Record<string, unknown>;
  severity: string;
  transport: string;
}

export function contentOf(entry: AuditEntry): RecordContent {
  const { principal, attribution } = entry;
  return {
    tenant_id: entry.tenantId,
    id: randomUUID(),
    at: entry.at.toISOString(),
    operation: entry.operation,
    method: entry.method,
    path: entry.path,
    resource_id: entry.resourceId,
    status: entry.status,
    outcome: entry.outcome,
    error_code: entry.errorCode,
    request_id: entry.requestId,
    idempotency_key: entry.idempotencyKey,
    subject_id: principal?.subjectId ?? null,
    credential_kind: principal?.credential.kind ?? null,
    credential_id: principal?.credential.id ?? null,
    actor_type: attribution.actorType,
    agent_id: attribution.agentId ?? null,
    actor_id: attribution.actorId ?? null,
    actor_email: attribution.actorEmail ?? principal?.email ?? null,
    fields: entry.fields,
    detail: entry.detail,
    severity: entry.severity,
    transport: entry.transport,
  };
}

const CONTENT_KEYS = [
  'tenant_id',
  'id',
  'at',
  'operation',
  'method',
  'path',
  'resource_id',
  'status',
  'outcome',
  'error_code',
  'request_id',
  'idempotency_key',
  'subject_id',
  'credential_kind',
  'credential_id',
  'actor_type',
  'agent_id',
  'actor_id',
  'actor_email',
  'fields',
  'detail',
  'severity',
  'transport',
] as const satisfies ReadonlyArray<keyof RecordContent>;

/** The stored columns of a record, in insert order. */
export const RECORD_COLUMNS: ReadonlyArray<keyof RecordContent> = CONTENT_KEYS;

/** A stored row's hashed content, as the database gives it back (whatever else the row carries). */
export function contentOfRow(row: Omit<RecordContent, 'at'> & { at: Date | string }): RecordContent {
  const content = {} as Record<string, unknown>;
  for (const key of CONTENT_KEYS) content[key] = row[key];
  content.at = new Date(row.at).toISOString();
  return content as unknown as RecordContent;
}

/** The text that is hashed; sorted keys, so the stored row reproduces it exactly. */
export function canonicalContent(content: RecordContent): string {
  return canonicalJson(content);
}

/** hash(n) = SHA-256(hash(n-1) "|" seq "|" content): the sealer computes it, the verifier recomputes it. */
export function chainHash(prevHash: string, seq: number, content: string): string {
  return createHash('sha256').update(`${prevHash}|${seq}|${content}`, 'utf8').digest('hex');
}
