import type { ApiError } from '../errors.js';
import { presentedKey } from '../idempotency/key.js';
import type { AuditEntry, AuditOutcome, Call, Reply } from '../types.js';

/** Tenant of a record: the effective tenant, else the subject's, else X-Service-Tenant, else '-'. */
export function auditTenant(call: Call): string {
  return call.tenantId ?? call.principal?.tenantId ?? call.headers['x-service-tenant']?.trim().slice(0, 64) ?? '-';
}

function idOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 256) : null;
}

/** What the call acted on: what the handler said, else the path's id, else the created body's id. */
function resourceOf(call: Call, reply: Reply | undefined): string | null {
  return call.resourceId ?? idOf(call.params.id) ?? idOf((reply?.body as { id?: unknown } | undefined)?.id);
}

const MAX_FIELD_CHARS = 2000;

/** PostgreSQL text and jsonb cannot hold U+0000; a recorded value must never fail the record. */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '\ufffd') : value;
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k) as string, storable(v)]));
  return value;
}

/** Only the fields the manifest names are recorded: bodies are never stored whole (secrets). */
function recordedFields(call: Call): Record<string, unknown> {
  const names = call.route.decl.audit?.fields;
  const body = call.body;
  const out: Record<string, unknown> = {};
  if (!names || typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return out;
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const text = JSON.stringify(value);
    out[name] = storable(text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS)}…` : value);
  }
  return out;
}

function outcomeOf(call: Call, status: number): AuditOutcome {
  if (call.notes.replayed) return 'replayed';
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  return call.dryRun ? 'dry_run' : 'success';
}

function errorCodeOf(reply: Reply | undefined): string | null {
  const code = (reply?.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : null;
}

/** The audit record of a call, from its reply or from the error it ended with. */
export function auditEntry(call: Call, result: { reply: Reply } | { error: ApiError }, at: Date): AuditEntry {
  const reply = 'reply' in result ? result.reply : undefined;
  const status = reply ? reply.status : (result as { error: ApiError }).error.status;
  const errorCode = reply ? errorCodeOf(reply) : (result as { error: ApiError }).error.code;
  const detail: Record<string, unknown> = { ...(call.notes.auditDetail ?? {}) };
  if (call.dryRun) detail.dry_run = true;
  if (call.notes.permissionChecked) detail.permission = call.notes.permissionChecked;
  return {
    tenantId: auditTenant(call),
    operation: call.route.decl.operation,
    method: call.method,
    path: call.path.slice(0, 1024),
    resourceId: resourceOf(call, reply),
    status,
    outcome: outcomeOf(call, status),
    errorCode,
    requestId: call.requestId,
    idempotencyKey: call.idempotencyKey ?? (call.route.idempotency === 'none' ? null : presentedKey(call)),
    principal: call.principal ?? null,
    attribution: call.attribution,
    fields: recordedFields(call),
    detail,
    severity: call.notes.severity ?? (call.route.auditClass === 'critical' ? 'critical' : 'info'),
    transport: call.transport,
    at,
  };
}
