import type { Reply, StepFactory } from '../../types.js';

/**
 * `?dry_run=true` on a mutating route: every later step runs for real — authentication,
 * tenancy, RBAC, validation, the handler — inside a transaction that is rolled back (the
 * transaction step does that when `call.dryRun` is set). The answer is a report of what would
 * have happened. A refusal is answered as the real call would be, since that is what would happen.
 *
 * The flag is read from the raw query here, before validation, so even a dry run refused by a
 * later step is known (and recorded) as one; validation still rejects a malformed value.
 */
export const dryRunStep: StepFactory = (route) => {
  if (!route.dryRunAllowed) return null;
  return async (call, next) => {
    const flag = call.query.dry_run;
    call.dryRun = flag === true || flag === 'true';
    const reply = await next();
    if (!call.dryRun || reply.status >= 400) return reply;
    const report: Reply = {
      status: 200,
      body: {
        dry_run: true,
        persisted: false,
        operation: route.decl.operation,
        tenant_id: call.tenantId ?? null,
        permission: call.notes.permissionChecked ?? route.decl.permission,
        would: {
          status: reply.status,
          ...(reply.body !== undefined ? { body: reply.body } : {}),
          ...(reply.headers && Object.keys(reply.headers).length > 0 ? { headers: reply.headers } : {}),
        },
      },
      headers: { 'Cache-Control': 'no-store' },
    };
    return report;
  };
};
