import { ApiError } from '../../errors.js';
import { PUBLIC } from '../../manifest/types.js';
import type { Principal, StepFactory } from '../../types.js';

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
 * The credential chain (spec §5): each link either recognises the credential's scheme and
 * decides, or returns null and the next link is tried. Public routes skip the chain.
 */
export const authenticateStep: StepFactory = (route, kernel) => {
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
  return async (call, next) => {
    for (const link of chain) {
      const principal = await link.authenticate(call);
      if (principal) {
        call.principal = principal;
        return next();
      }
    }
    const presented = call.headers.authorization !== undefined || call.headers['x-api-key'] !== undefined;
    throw presented
      ? new ApiError('invalid_credentials', 'The credential is not recognised.')
      : new ApiError(
          'authentication_required',
          'This route needs a credential: a session or API token as Authorization: Bearer, X-API-Key, or an OIDC access token.',
          { headers: { 'WWW-Authenticate': 'Bearer' } },
        );
  };
};
