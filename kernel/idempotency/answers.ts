import { ApiError } from '../errors.js';
import type { StoredResponse } from './store.js';
import type { Call, Reply } from '../types.js';

/** What the idempotency step answers from a key's state, in a transaction or after a combined write. */

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The answer while another call with the key holds it. */
export function keyBusy(): ApiError {
  return new ApiError(
    'conflict',
    'A request with this idempotency key is still running; retry with the same key shortly.',
    { headers: { 'Retry-After': '1' } },
  );
}

/**
 * The answer for a key stored live: its response replayed when the payload is the same, else
 * 422. Undefined when nothing live is stored (the call may act).
 */
export function storedAnswer(
  call: Call,
  stored: StoredResponse | undefined,
  fingerprint: string,
  now: Date,
): Reply | undefined {
  if (!stored || stored.expiresAt <= now) return undefined;
  if (stored.fingerprint !== fingerprint) {
    throw new ApiError(
      'idempotency_key_reused',
      'This idempotency key was used with a different payload; a new intent needs a new key.',
    );
  }
  call.notes.replayed = true;
  return { ...stored.reply, headers: { ...(stored.reply.headers ?? {}), [REPLAYED_HEADER]: 'true' } };
}
