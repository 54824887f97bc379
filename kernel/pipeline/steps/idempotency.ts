import type { Knex } from 'knex';
import { ApiError } from '../../errors.js';
import { idempotencyKeyOf, payloadFingerprint } from '../../idempotency/key.js';
import { claimKey, saveResponse, type KeyScope } from '../../idempotency/store.js';
import type { Reply, StepFactory } from '../../types.js';

export const REPLAYED_HEADER = 'Idempotent-Replayed';
const HOUR_MS = 3_600_000;

/** Retention of idempotency keys (config `idempotency.retention_hours`, default 24 h). */
export function retentionMs(config: { idempotency?: { retention_hours?: number } }): number {
  return (config.idempotency?.retention_hours ?? 24) * HOUR_MS;
}

/**
 * Idempotency keys where the manifest declares them (spec §4, §7). Runs inside the call's
 * transaction, so the stored response commits with the effect and its audit record, or not at
 * all: same key + same payload → the stored response replayed (status, headers, body) with
 * `Idempotent-Replayed: true`; same key + other payload → 422 `idempotency_key_reused`; same
 * key still running → 409 `conflict` with `Retry-After`. Dry runs neither read nor store keys.
 */
export const idempotencyStep: StepFactory = (route, kernel) => {
  if (route.idempotency === 'none' || !route.mutating) return null;
  const retention = retentionMs(kernel.config);
  return async (call, next) => {
    const key = idempotencyKeyOf(call);
    if (key === undefined) return next();
    call.idempotencyKey = key;
    if (call.dryRun) return next();
    const trx = call.db as Knex.Transaction;
    const scope: KeyScope = { tenantId: call.tenantId ?? '-', subjectId: call.principal?.subjectId ?? '-', operation: route.decl.operation, key };
    const fingerprint = payloadFingerprint(call);
    const claim = await claimKey(trx, scope);
    if (!claim.locked) {
      throw new ApiError('conflict', 'A request with this idempotency key is still running; retry with the same key shortly.', { headers: { 'Retry-After': '1' } });
    }
    const now = kernel.clock.now();
    if (claim.stored && claim.stored.expiresAt > now) {
      if (claim.stored.fingerprint !== fingerprint) {
        throw new ApiError('idempotency_key_reused', 'This idempotency key was used with a different payload; a new intent needs a new key.');
      }
      call.notes.replayed = true;
      const stored = claim.stored.reply;
      const replay: Reply = { ...stored, headers: { ...(stored.headers ?? {}), [REPLAYED_HEADER]: 'true' } };
      return replay;
    }
    const reply = await next();
    if (!(await saveResponse(trx, scope, fingerprint, reply, now, new Date(now.getTime() + retention)))) {
      throw new ApiError('conflict', 'Another request with this idempotency key has just completed; retry with the same key to get its response.', { headers: { 'Retry-After': '1' } });
    }
    return reply;
  };
};
