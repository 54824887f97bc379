import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import type { RedeemedTicket, TicketStore } from './tickets.js';
import type { Authenticator, Principal, StepFactory } from '../types.js';

function refused(message: string): ApiError {
  return new ApiError('invalid_credentials', message);
}

/**
 * The principal of a redeemed ticket as it is now: the link that issued the credential
 * re-reads it (current permissions; null once revoked). Credentials no link can resume (OIDC
 * access tokens, a local deployment's admin) keep the principal they had at minting, at most
 * 30 s before.
 */
export async function currentPrincipal(
  redeemed: RedeemedTicket,
  authenticators: readonly Authenticator[],
  db: Knex,
): Promise<Principal | null> {
  const link = authenticators.find((a) => a.name === redeemed.held.credential.kind && a.resume);
  return link?.resume ? link.resume(redeemed.held, db) : redeemed.minted;
}

/**
 * Authentication of a WebSocket route, in place of the credential chain (a browser cannot send
 * a credential header on a WebSocket): `?ticket=` is redeemed — once, within its 30 s — and must
 * have been minted for this route's channel, for the resource the route names (when it names
 * one), and for the tenant asked for. The ticket's tenant becomes the call's `tenant_id`, so
 * the tenancy and RBAC steps that follow judge it with the principal's current permissions.
 */
export function ticketStep(tickets: TicketStore): StepFactory {
  return (route, kernel) => {
    if (route.decl.upgrade !== 'websocket') return null;
    const channel = route.decl.ticket?.channel;
    const resourceParam = route.decl.ticket?.resource_param;
    return async (call, next) => {
      const ticket = call.query.ticket;
      if (typeof ticket !== 'string' || ticket.length === 0) {
        throw new ApiError(
          'authentication_required',
          'This WebSocket route opens with a one-time ticket: ?ticket=… as minted over the API.',
        );
      }
      const redeemed = await tickets.redeem(kernel.db, ticket, kernel.clock.now());
      if (!redeemed) throw refused('The ticket is unknown, already used or expired.');
      if (redeemed.channel !== channel) throw refused('The ticket was minted for another channel.');
      if (resourceParam !== undefined) {
        const asked = call.params[resourceParam] ?? call.query[resourceParam];
        if (String(asked) !== redeemed.resource) throw refused('The ticket was minted for another resource.');
      }
      const askedTenant = call.query.tenant_id;
      if (askedTenant !== undefined && askedTenant !== redeemed.tenantId)
        throw refused('The ticket was minted for another tenant.');
      const principal = await currentPrincipal(redeemed, kernel.authenticators, kernel.db);
      if (!principal) throw refused('The credential the ticket was minted with is expired or revoked.');
      call.principal = principal;
      call.tenantId = redeemed.tenantId;
      if (route.tenancy === 'tenant') call.query.tenant_id = redeemed.tenantId;
      call.resourceId = redeemed.resource;
      return next();
    };
  };
}
