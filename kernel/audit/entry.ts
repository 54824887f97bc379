import type { ApiError } from '../errors.js';
import { presentedKey } from '../idempotency/key.js';
import { ACCOUNT_WIDE } from '../tenancy/scope.js';
import type { AuditEntry, AuditOutcome, Call, Principal, Reply } from '../types.js';
import { Storable } from './storable.js';

/**
 * The account-level trail: where the calls of callers nobody authenticated are recorded (a
 * failed login, a wrong token). No tenant id can take this name (tenant ids start with a letter
 * or digit), so an anonymous caller can neither grow a tenant's chain nor create one by naming a
 * tenant. Account admins read it at GET /audit/account.
 */
export const ACCOUNT_TRAIL = '_account';

/**
 * Whose trail a record joins. An authenticated subject's call: the tenant it was allowed to act
 * in, else its own tenant. A call with no subject: the account trail — unless the call itself
 * proved who the caller is (a successful login or refresh names its tenant in `call.tenantId`).
 */
export function auditTenant(call: Call, status: number): string {
  const principal = call.principal;
  if (principal)
    return call.tenantId !== undefined && call.tenantId !== ACCOUNT_WIDE ? call.tenantId : principal.tenantId;
  if (status < 400 && call.tenantId !== undefined && call.tenantId !== ACCOUNT_WIDE) return call.tenantId;
  return ACCOUNT_TRAIL;
}

/** The tenant an unauthenticated call named (body, query or header), kept in its account-trail record. */
function namedTenant(call: Call): unknown {
  const body = call.body as { tenant_id?: unknown } | undefined;
  const fromBody = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body.tenant_id : undefined;
  return call.tenantId ?? fromBody ?? call.query.tenant_id ?? call.headers['x-service-tenant'];
}

function idOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** What the call acted on: what the handler said, else the path's id, else the created body's id. */
function resourceOf(call: Call, reply: Reply | undefined): string | null {
  return call.resourceId ?? idOf(call.params.id) ?? idOf((reply?.body as { id?: unknown } | undefined)?.id);
}

/** Only the fields the manifest names are recorded: bodies are never stored whole (secrets). */
function recordedFields(call: Call, clean: Storable): Record<string, unknown> {
  const names = call.route.decl.audit?.fields;
  const body = call.body;
  const out: Record<string, unknown> = {};
  if (!names || typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return out;
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined) continue;
    out[name] = clean.value(value);
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

function storablePrincipal(principal: Principal | undefined, clean: Storable): Principal | null {
  if (!principal) return null;
  const copy: Principal = {
    ...principal,
    subjectId: clean.text(principal.subjectId, 320),
    credential: { ...principal.credential, id: clean.text(principal.credential.id, 256) },
  };
  if (principal.email !== undefined) copy.email = clean.text(principal.email, 320);
  return copy;
}

/**
 * The audit record of a call, from its reply or from the error it ended with. Whatever the
 * input, every value in it can be stored: what could not be is replaced or cut, and the record
 * says so (`detail.input_sanitized`), so a refusal for hostile input is never lost.
 */
export function auditEntry(call: Call, result: { reply: Reply } | { error: ApiError }, at: Date): AuditEntry {
  const clean = new Storable();
  const reply = 'reply' in result ? result.reply : undefined;
  const status = reply ? reply.status : (result as { error: ApiError }).error.status;
  const errorCode = reply ? errorCodeOf(reply) : (result as { error: ApiError }).error.code;
  const tenantId = auditTenant(call, status);
  const detail: Record<string, unknown> = { ...(call.notes.auditDetail ?? {}) };
  if (call.dryRun) detail.dry_run = true;
  if (call.notes.permissionChecked) detail.permission = call.notes.permissionChecked;
  if (tenantId === ACCOUNT_TRAIL) {
    const named = namedTenant(call);
    if (named !== undefined) detail.named_tenant = named;
  }
  const attribution = { ...call.attribution };
  for (const key of ['agentId', 'actorId', 'actorEmail'] as const) {
    const value = attribution[key];
    if (value !== undefined) attribution[key] = clean.text(value, 256);
  }
  const entry: AuditEntry = {
    tenantId,
    operation: call.route.decl.operation,
    method: call.method,
    path: clean.text(call.path, 1024),
    resourceId: clean.optionalText(resourceOf(call, reply), 256),
    status,
    outcome: outcomeOf(call, status),
    errorCode,
    requestId: call.requestId,
    idempotencyKey: clean.optionalText(
      call.idempotencyKey ?? (call.route.idempotency === 'none' ? null : presentedKey(call)),
      255,
    ),
    principal: storablePrincipal(call.principal, clean),
    attribution,
    fields: recordedFields(call, clean),
    detail: clean.value(detail) as Record<string, unknown>,
    severity: call.notes.severity ?? (call.route.auditClass === 'critical' ? 'critical' : 'info'),
    transport: call.transport,
    at,
  };
  if (clean.changed) entry.detail.input_sanitized = true;
  return entry;
}

/**
 * The smallest record of a call, for when the full one could not be written: who, what, the
 * outcome, and why the rest is missing. Nothing in it comes from the request's content.
 */
export function strippedEntry(entry: AuditEntry, reason: string): AuditEntry {
  return {
    ...entry,
    resourceId: null,
    idempotencyKey: null,
    fields: {},
    detail: { record_stripped: reason.slice(0, 200) },
  };
}
