import { ApiError } from '../../errors.js';
import { PUBLIC } from '../../manifest/types.js';
import type { Call, Principal, RememberedCredential, Reply, StepFactory } from '../../types.js';
import { confirmCredential, rememberedFor } from '../remembered-credential.js';

/** The principal every call acts as when a local deployment runs with no authenticator. */
export function localAdmin(tenantId: string, permissions: ReadonlySet<string>): Principal {
  return {
    subjectId: 'local-admin',
    tenantId,
    credential: { kind: 'local', id: 'local' },
    roles: ['admin'],
    permissions,
  };
}

/**
 * Forgets what later steps derived from a principal that turned out not to hold, so the call is
 * refused — and recorded, on the account trail — as if the chain had refused it at the start.
 */
function unauthenticated(call: Call): void {
  delete call.principal;
  delete call.tenantId;
  delete call.resourceId;
  delete call.notes.permissionChecked;
}

/**
 * The credential chain (spec §5): each link either recognises the credential's scheme and
 * decides, or returns null and the next link is tried. Public routes skip the chain.
 *
 * A call whose writes may be combined into one statement may take its principal from what a link
 * remembered of an earlier call's check (Authenticator.remembered), with no read: the statement
 * then carries the check that the credential still holds (./remembered-credential.ts), and a
 * call that ends without such a statement committing — refused by a later step, a dry run, a
 * replay — is checked with a fresh read before it is answered. So every answer and every write
 * is made on a credential that held when it was made.
 */
export const authenticateStep: StepFactory = (route, kernel, handler) => {
  if (route.decl.permission === PUBLIC) return null;
  // A WebSocket route authenticates by its one-time ticket instead (kernel/realtime/ticket-step.ts).
  if (route.decl.upgrade === 'websocket') return null;
  if (kernel.config.auth.mode === 'none') {
    const everything = new Set(kernel.catalog.permissions.keys());
    return (call, next) => {
      call.principal = localAdmin(call.headers['x-service-tenant'] ?? 'default', everything);
      return next();
    };
  }
  const chain = kernel.authenticators;
  // Work done before the transaction (a remote call) must not run on a remembered credential.
  const mayRemember =
    route.mutating &&
    handler?.combinedWrite !== undefined &&
    handler.beforeTransaction === undefined &&
    route.decl.transaction !== false;
  const refusal = (call: Call): ApiError => {
    const presented = call.headers.authorization !== undefined || call.headers['x-api-key'] !== undefined;
    return presented
      ? new ApiError('invalid_credentials', 'The credential is not recognised.')
      : new ApiError(
          'authentication_required',
          'This route needs a credential: a session or API token as Authorization: Bearer, X-API-Key, or an OIDC access token.',
          { headers: { 'WWW-Authenticate': 'Bearer' } },
        );
  };
  /** The chain, each link read afresh. */
  const authenticate = async (call: Call): Promise<Principal> => {
    for (const link of chain) {
      const principal = await link.authenticate(call);
      if (principal) return principal;
    }
    throw refusal(call);
  };
  if (!mayRemember) {
    return async (call, next) => {
      call.principal = await authenticate(call);
      return next();
    };
  }
  const check = async (call: Call): Promise<void> => {
    try {
      call.principal = await authenticate(call);
    } catch (err) {
      unauthenticated(call);
      throw err;
    }
  };
  return async (call, next) => {
    let remembered: RememberedCredential | null = null;
    for (const link of chain) {
      remembered = link.remembered?.(call) ?? null;
      if (remembered) break;
      const principal = await link.authenticate(call);
      if (principal) {
        call.principal = principal;
        return next();
      }
    }
    if (!remembered) throw refusal(call);
    call.principal = remembered.principal;
    rememberedFor(call, remembered, () => check(call));
    let reply: Reply;
    try {
      reply = await next();
    } catch (err) {
      await confirmCredential(call);
      throw err;
    }
    await confirmCredential(call);
    return reply;
  };
};
