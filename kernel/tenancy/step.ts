import { ApiError } from '../errors.js';
import { ACCOUNT_PERMISSION, ACCOUNT_WIDE } from './scope.js';
import type { Call, Step, StepFactory } from '../types.js';

export { ACCOUNT_PERMISSION } from './scope.js';

function requestedTenant(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

const TENANT_POINTER = (call: Call, fromBody: boolean): { in: string; pointer: string; message: string } => ({
  in: fromBody && (call.body as Record<string, unknown> | undefined)?.tenant_id !== undefined ? 'body' : 'query',
  pointer: '/tenant_id',
  message: 'account-wide scope (*) is for reading lists',
});

/**
 * Resolves the effective tenant (spec §5): tenant_id in the body (writes) or query (reads),
 * then the subject's tenant, then X-Service-Tenant. Another tenant is 404, never 403, so a
 * caller learns nothing about tenants it cannot see; an account admin naming a tenant that does
 * not exist gets 404 too. `*` is the account-wide scope: reads of lists only, with
 * runtime:account:admin (the kernel then lists every tenant, see tenancy/account-wide.ts); a
 * write or a single-resource read with `*` is a 400, since it names no one tenant.
 */
export const tenancyStep: StepFactory = (route, kernel) => {
  if (route.tenancy !== 'tenant') return route.mutating ? null : tenantFreeRead;
  const fromBody = route.mutating && route.schemas.body !== undefined;
  const listsRows = !route.mutating && route.decl.paging !== undefined;
  return async (call, next) => {
    const explicit = fromBody
      ? (requestedTenant((call.body as Record<string, unknown> | undefined)?.tenant_id) ??
        requestedTenant(call.query.tenant_id))
      : requestedTenant(call.query.tenant_id);
    const principal = call.principal;
    const tenant = explicit ?? principal?.tenantId ?? requestedTenant(call.headers['x-service-tenant']);
    if (!tenant) throw new ApiError('bad_request', 'No tenant: send tenant_id or X-Service-Tenant.');
    const elevated = principal?.permissions.has(ACCOUNT_PERMISSION) === true;
    if (tenant === ACCOUNT_WIDE) {
      if (!listsRows) {
        throw new ApiError(
          'bad_request',
          `${route.decl.operation} acts on one tenant; the account-wide scope (*) only reads lists. Name a tenant.`,
          { details: [TENANT_POINTER(call, fromBody)] },
        );
      }
      if (!elevated)
        throw new ApiError('forbidden', `Account-wide scope (*) needs the permission ${ACCOUNT_PERMISSION}.`);
    } else if (principal && tenant !== principal.tenantId) {
      if (!elevated) throw new ApiError('not_found');
      // Only an account admin gets here: naming a tenant that does not exist is a 404, so no
      // write ever lands under (or creates a trail for) a tenant nobody created.
      const directory = kernel.tenants;
      if (directory && !(await directory.exists(kernel.db, tenant)))
        throw new ApiError('not_found', `No tenant "${tenant}".`);
    }
    call.tenantId = tenant;
    return next();
  };
};

/**
 * A read that acts in no tenant (`/component-types`, `/auth/sessions`, `/health`) still takes
 * `tenant_id` (spec §4), held to the same rule as everywhere: a caller naming a tenant that is
 * not its own without runtime:account:admin gets the same 404 as on a tenant route, and `*`
 * needs that permission. It selects nothing; the reply names the caller's own tenant (the
 * X-Tenant-Id header), which is the one the route acted for. An anonymous call to a public
 * route has no tenant to compare with, so the field is only validated.
 */
const tenantFreeRead: Step = async (call, next) => {
  const asked = requestedTenant(call.query.tenant_id);
  const principal = call.principal;
  if (asked && principal && asked !== principal.tenantId && !principal.permissions.has(ACCOUNT_PERMISSION)) {
    if (asked === ACCOUNT_WIDE)
      throw new ApiError('forbidden', `Account-wide scope (*) needs the permission ${ACCOUNT_PERMISSION}.`);
    throw new ApiError('not_found');
  }
  return next();
};
