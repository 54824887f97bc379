import { pageOf as kernelPage, afterKey } from '../../../kernel/plugin/api.js';
import { ApiError } from '../../../kernel/errors.js';
import type { Call, PageRequest, Principal, Reply } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';

/**
 * A refusal that must still commit what the handler wrote (a failed-login counter, a session
 * revoked for refresh-token reuse): thrown errors roll the transaction back, so these are
 * returned as replies carrying the usual error body.
 */
export function refusal(code: 'invalid_credentials', message: string): Reply {
  return { status: 401, body: new ApiError(code, message).toBody() };
}

/** A call of a route that is not public: the authentication step set its principal. */
export type SignedInCall = Call & { principal: Principal };

/** The kernel's keyset position with the last served id (identity lists key on `id`). */
export function pageOf(call: Call): PageRequest & { afterId: string | undefined } {
  const page = kernelPage(call);
  return { ...page, afterId: afterKey(page) };
}

/**
 * No one hands out more than they hold at this moment (the permissions the caller's credential
 * carries on this request): 403 naming the permissions that exceed them.
 */
export function assertPermissionsHeld(call: SignedInCall, permissions: Iterable<string>, what: string): void {
  const held = call.principal.permissions;
  const excess = [...new Set(permissions)].filter((p) => !held.has(p)).sort();
  if (excess.length > 0) throw new ApiError('forbidden', `${what} permissions you do not hold: ${excess.join(', ')}.`);
}

/**
 * No one hands out more than they hold: every permission the roles grant must be held by the
 * caller, or 403 naming the permissions that exceed it. Unknown roles are a 400. The roles'
 * rows stay locked until the call's transaction ends (see RoleBook.resolve).
 */
export async function assertGrantable(
  call: SignedInCall,
  deps: IdentityDeps,
  tenantId: string,
  roles: readonly string[],
  pointer = '/roles',
): Promise<void> {
  const { roles: found, unknown } = await deps.roles.resolve(call.db, tenantId, roles, true);
  if (unknown.length > 0) {
    throw new ApiError('validation_error', `Unknown role${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, {
      details: unknown.map((name) => ({
        in: 'body',
        pointer: `${pointer}/${roles.indexOf(name)}`,
        message: `no role "${name}" in tenant ${tenantId}`,
      })),
    });
  }
  assertPermissionsHeld(
    call,
    found.flatMap((r) => r.permissions),
    'The roles grant',
  );
}
