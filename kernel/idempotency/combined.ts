import { ApiError } from '../errors.js';
import type { CombinedCommit } from '../db/transaction-step.js';
import type { Call } from '../types.js';
import { keyBusy, storedAnswer } from './answers.js';
import { idempotencyKeyOf } from './key.js';
import { claimInsert, storedResponse, type KeyScope } from './store.js';

interface Claim {
  scope: KeyScope;
  fingerprint: string;
  retention: number;
  /** The error the claim part failed the statement with (made then): this call's own, so its refusal is told apart. */
  taken?: ApiError;
}

/** The keys the idempotency step left for the combined write of their calls. */
const claims = new WeakMap<Call, Claim>();

/** Called by the idempotency step for a call whose writes are combined: its key is claimed in their statement. */
export function claimInCombinedWrite(call: Call, claim: Claim): void {
  claims.set(call, claim);
}

/**
 * A keyed call whose writes are combined claims its key in the same statement: the statement's
 * first part takes the key's lock (without waiting, as the transaction's claim does) and stores
 * the response unless a live one is stored; it is a guard, so when it claims nothing the
 * statement stops before the effect, the events and the audit record ran, and nothing commits.
 * Only then — rarely — does a second statement read the key, to answer as the idempotency step
 * does: the stored response replayed, 422 for another payload, 409 while the first call runs.
 * One effect per key holds as in a transaction: the lock and the key's primary key admit one
 * claim, and one statement commits all of its parts or none, a killed process included.
 */
export const keyInCombinedWrite: CombinedCommit = {
  supported(call) {
    // A key on a route that declares none is not the kernel's to claim: such a call keeps its transaction.
    return idempotencyKeyOf(call) === undefined || (call.route.idempotency !== 'none' && call.route.mutating);
  },
  add(write, call, reply, kernel) {
    const claim = claims.get(call);
    if (!claim) return;
    const now = kernel.clock.now();
    const { sql, bindings } = claimInsert(
      claim.scope,
      claim.fingerprint,
      reply,
      now,
      new Date(now.getTime() + claim.retention),
    );
    const taken = () => (claim.taken = new ApiError('conflict', 'The idempotency key is taken.'));
    write.add('idempotency_key', sql, bindings, { required: taken, guard: true });
  },
  async answer(err, call, kernel) {
    const claim = claims.get(call);
    if (!claim || claim.taken === undefined || err !== claim.taken) return undefined;
    const stored = await storedResponse(kernel.db, claim.scope);
    const replay = storedAnswer(call, stored, claim.fingerprint, kernel.clock.now());
    if (!replay) throw keyBusy();
    return replay;
  },
};
