import { ApiError } from '../errors.js';
import type { CombinedCommit } from '../db/transaction-step.js';
import type { Call, RememberedCredential } from '../types.js';

/** A call's principal taken from what an authenticator remembered (Authenticator.remembered), not yet confirmed. */
interface Unconfirmed {
  remembered: RememberedCredential;
  /** Checks the credential as the chain does for a call it has not seen (a fresh read): sets the principal, or throws the refusal. */
  check(): Promise<void>;
  /** The error the guard part failed the call's statement with (made then): this call's own. */
  refused?: ApiError;
}

const unconfirmed = new WeakMap<Call, Unconfirmed>();

/** Called by the authentication step when it took the call's principal from an authenticator's memory. */
export function rememberedFor(call: Call, remembered: RememberedCredential, check: () => Promise<void>): void {
  unconfirmed.set(call, { remembered, check });
}

/**
 * Makes sure the call's credential holds before anything is answered or written on its word: a
 * principal taken from an authenticator's memory is checked with a fresh read, unless the call's
 * committed statement already confirmed it. Throws the refusal a fresh check gives (the principal
 * is gone then). Nothing to do for a principal the chain read for this call.
 */
export async function confirmCredential(call: Call): Promise<void> {
  const pending = unconfirmed.get(call);
  if (!pending) return;
  unconfirmed.delete(call);
  await pending.check();
}

/**
 * A call whose principal was remembered confirms it in its own combined write: the
 * authenticator's part, a guard placed before every other part (the key's claim included), so a
 * credential revoked, expired or disabled before the statement ran stops the write — effect,
 * key, audit record — and the call is then checked again with a fresh read, which refuses it
 * exactly as it would have had the credential been read at the start (401, recorded on the
 * account trail). A commit confirms it; no read of the credential was needed at all.
 */
export const credentialInCombinedWrite: CombinedCommit = {
  supported: () => true,
  add(write, call) {
    const pending = unconfirmed.get(call);
    if (!pending) return;
    pending.remembered.confirmIn(write, {
      guard: true,
      read: true,
      required: () => (pending.refused = new ApiError('invalid_credentials', 'The credential no longer holds.')),
    });
    write.onCommit(() => unconfirmed.delete(call));
  },
  async answer(err, call) {
    const pending = unconfirmed.get(call);
    if (!pending || pending.refused === undefined || err !== pending.refused) return undefined;
    await confirmCredential(call);
    // The fresh read found the credential holding: it changed back between the statement and the read.
    throw new ApiError('conflict', 'The credential changed while the call ran; nothing was written. Send it again.', {
      headers: { 'Retry-After': '1' },
    });
  },
};
