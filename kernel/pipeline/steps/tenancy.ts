import { ApiError } from '../../errors.js';
import { ACCOUNT_WIDE } from '../../manifest/compile.js';
import type { StepFactory } from '../../types.js';

/** The permission that lets a subject act outside its own tenant, or account-wide (`*`). */
export const ACCOUNT_PERMISSION = 'runtime:account:admin';

function requestedTenant(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Resolves the effective tenant (spec §5): tenant_id in the body (writes) or query (reads),
 * then the subject's tenant, then X-Service-Tenant. Another tenant is 404, never 403, so a
 * caller learns nothing about tenants it cannot see.
 */
export const tenancyStep: StepFactory = (route) => {
  if (route.tenancy !== 'tenant') return null;
  const fromBody = route.mutating && route.schemas.body !== undefined;
  return (call, next) => {
    const explicit = fromBody
      ? requestedTenant((call.body as Record<string, unknown> | undefined)?.tenant_id) ?? requestedTenant(call.query.tenant_id)
      : requestedTenant(call.query.tenant_id);
    const principal = call.principal;
    const tenant = explicit ?? principal?.tenantId ?? requestedTenant(call.headers['x-service-tenant']);
    if (!tenant) throw new ApiError('bad_request', 'No tenant: send tenant_id or X-Service-Tenant.');
    if (principal && tenant !== principal.tenantId && !principal.permissions.has(ACCOUNT_PERMISSION)) {
      if (tenant === ACCOUNT_WIDE) throw new ApiError('forbidden', `Account-wide scope (*) needs the permission ${ACCOUNT_PERMISSION}.`);
      throw new ApiError('not_found');
    }
    call.tenantId = tenant;
    return next();
  };
};
