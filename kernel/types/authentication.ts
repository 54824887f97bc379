/** The authentication chain's links, and the one-time tickets that open WebSocket routes. */
import type { Knex } from 'knex';
import type { CombinedWrite, PartOptions } from '../db/combined-write.js';
import type { Call, Principal } from './call.js';

/** A credential as a ticket or an open socket remembers it (never the secret itself). */
export interface HeldCredential {
  tenantId: string;
  subjectId: string;
  credential: Principal['credential'];
}

/** Pluggable link in the authentication chain. */
export interface Authenticator {
  /**
   * Human name of the scheme, used in logs and the OpenAPI document. A link that implements
   * `resume` or `stillValid` names the credential kind its principals carry (`session`, ...).
   */
  readonly name: string;
  /**
   * Returns the principal, or null when the request carries no credential of this scheme (the
   * chain then tries the next link). Throws ApiError('invalid_credentials') for a credential of
   * this scheme that is wrong.
   */
  authenticate(call: Call): Promise<Principal | null>;
  /**
   * Optional: the principal of a credential this link accepted for an earlier call, from what it
   * kept of that call's check, with no read — or null when it kept nothing for the credential the
   * call shows (then `authenticate` is asked). The kernel asks it only for a call whose writes may
   * be combined into one statement, and the principal holds only as far as the credential still
   * does when that statement runs: `confirmIn` adds the part that says so, which must return a
   * row only while the credential holds and grants what the principal says (the kernel makes it a
   * guard, so a revocation committed before the statement stops the whole write). A call that
   * ends any other way is checked again with `authenticate` before it is answered.
   */
  remembered?(call: Call): RememberedCredential | null;
  /** OpenAPI security schemes this link accepts, by scheme name. */
  readonly securitySchemes?: Record<string, Record<string, unknown>>;
  /**
   * The principal of a credential this link accepted earlier, as it stands now (current roles
   * and permissions), or null when it is no longer valid. Used when a WebSocket ticket minted
   * under the credential is redeemed; without it the principal is taken as it was at minting.
   */
  resume?(held: HeldCredential, db: Knex): Promise<Principal | null>;
  /**
   * The ids of those credentials that are still valid (not revoked, expired or disabled): one
   * pass for many open sockets. The kernel closes the sockets of the others.
   */
  stillValid?(held: readonly HeldCredential[], db: Knex): Promise<ReadonlySet<string>>;
}

/** A credential an authenticator accepted before (Authenticator.remembered). */
export interface RememberedCredential {
  principal: Principal;
  /**
   * Adds to the call's combined write the read that returns a row only while the credential holds,
   * with these options. The same credential's read should be the same text and values for every
   * call (nothing of the call in it): a statement that combines several calls then asks it once.
   */
  confirmIn(write: CombinedWrite, options: Required<Pick<PartOptions, 'guard' | 'required' | 'read'>>): void;
}

/** A ticket as its minter receives it; only its SHA-256 is stored. */
export interface MintedTicket {
  ticket: string;
  expires_at: string;
}

/**
 * One-time tickets that open WebSocket routes (a browser cannot send a credential header on a
 * WebSocket). A plugin mints one over an authenticated route; the kernel redeems it in the
 * upgrade, once, within 30 s, for the same subject, tenant, resource and channel.
 */
export interface TicketService {
  /**
   * Mints a ticket for the call's principal and tenant, written with the call's database handle
   * (so a dry run or a failed call leaves none). `channel` is the `ticket.channel` a WebSocket
   * route declares; `resource` is what the socket is for (a workspace id, a room).
   */
  mint(call: Call, binding: { resource: string; channel: string }): Promise<MintedTicket>;
}
