import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import { idempotencyKeyOf, payloadFingerprint } from './key.js';
import { claimKey, saveResponse, type KeyScope } from './store.js';
import { claimInCombinedWrite } from './combined.js';
import { keyBusy, storedAnswer } from './answers.js';
import type { StepFactory } from '../types.js';

export { REPLAYED_HEADER } from './answers.js';
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
 * A call whose writes are combined into one statement has no transaction: the claim and the
 * stored response become the statement's first part instead (./combined.ts).
 */
export const idempotencyStep: StepFactory = (route, kernel) => {
  if (route.idempotency === 'none' || !route.mutating) return null;
  const retention = retentionMs(kernel.config);
  return async (call, next) => {
    const key = idempotencyKeyOf(call);
    if (key === undefined) return next();
    call.idempotencyKey = key;
    if (call.dryRun) return next();
    const scope: KeyScope = {
      tenantId: call.tenantId ?? '-',
      subjectId: call.principal?.subjectId ?? '-',
      operation: route.decl.operation,
      key,
    };
    const fingerprint = payloadFingerprint(call);
    if (call.write) {
      claimInCombinedWrite(call, { scope, fingerprint, retention });
      return next();
    }
    const trx = call.db as Knex.Transaction;
    const claim = await claimKey(trx, scope);
    if (!claim.locked) throw keyBusy();
    const now = kernel.clock.now();
    const replay = storedAnswer(call, claim.stored, fingerprint, now);
    if (replay) return replay;
    const reply = await next();
    if (!(await saveResponse(trx, scope, fingerprint, reply, now, new Date(now.getTime() + retention)))) {
      throw new ApiError(
        'conflict',
        'Another request with this idempotency key has just completed; retry with the same key to get its response.',
        { headers: { 'Retry-After': '1' } },
      );
    }
    return reply;
  };
};
