import { ApiError } from '../errors.js';
import type { Call, CompiledRoute, Handler, KernelServices, PageRequest, Reply } from '../types.js';
import { ACCOUNT_WIDE } from './scope.js';

type Item = Record<string, unknown>;

/**
 * Account-wide reads of a list (`tenant_id=*`), for every list route of every plugin without
 * its handler knowing: the handler is asked tenant by tenant, in tenant order, for the rest of
 * the page, exactly as it answers one tenant's list. The page is ordered by (tenant, the
 * route's own key), so the paging step's cursor names the tenant of the last row first
 * (see paging/step.ts) and the next page resumes inside that tenant.
 *
 * Each item names its tenant: the handler's `tenant_id` when it gives one, else the tenant it
 * was asked for. The cost is one handler call per tenant that is visited, which is the price of
 * needing nothing from the plugin; a page stops visiting tenants as soon as it is full.
 */
export function accountWideList(route: CompiledRoute, handler: Handler, kernel: KernelServices): Handler {
  if (route.mutating || route.tenancy !== 'tenant' || !route.decl.paging) return handler;
  return async (call: Call): Promise<Reply> => {
    if (call.tenantId !== ACCOUNT_WIDE) return handler(call);
    const directory = kernel.tenants;
    if (!directory)
      throw new ApiError(
        'not_configured',
        'The account-wide scope (*) needs a plugin that knows the tenants (identity).',
      );
    const page = call.page as PageRequest;
    const [afterTenant, ...afterKey] = page.after ?? [];
    const tenants = (await directory.list(kernel.db)).filter(
      (t) => afterTenant === undefined || t >= String(afterTenant),
    );
    const items: Item[] = [];
    let last: Reply = { status: 200, body: { items } };
    try {
      for (const tenant of tenants) {
        if (items.length >= page.fetch) break;
        call.tenantId = tenant;
        const resume = tenant === afterTenant && afterKey.length > 0;
        call.page = { limit: page.limit, fetch: page.fetch - items.length, ...(resume ? { after: afterKey } : {}) };
        last = await handler(call);
        if (last.status !== 200) return last;
        const body = last.body as { items?: unknown[] } | undefined;
        for (const item of body?.items ?? []) {
          const row = item as Item;
          items.push(row.tenant_id === undefined || row.tenant_id === null ? { ...row, tenant_id: tenant } : row);
        }
      }
    } finally {
      call.tenantId = ACCOUNT_WIDE;
      call.page = page;
    }
    return { ...last, body: { ...(last.body as object), items } };
  };
}
