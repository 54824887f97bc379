import { ApiError } from '../../kernel/errors.js';
import { ACCOUNT_PERMISSION } from '../../kernel/plugin/api.js';
import type { Call } from '../../kernel/types.js';
import type { IdentityDeps } from './deps.js';
import { customRolesGranting } from './store/roles.js';
import { lockTenant } from './store/tenants.js';
import { countEnabledUsersHolding } from './store/users.js';

/**
 * An active account admin is a user of the bootstrap tenant who is not disabled and holds at
 * least one role — built-in (account-admin) or custom — that grants runtime:account:admin. A
 * temporary lockout does not count against it: it ends by itself. The bootstrap tenant is where
 * the service's first admin lives and where an operator signs in to manage every tenant;
 * without such a user, nobody can create tenants or repair another tenant's access short of
 * the break-glass key or the database.
 */
async function countActiveAccountAdmins(call: Call, deps: IdentityDeps, tenantId: string): Promise<number> {
  const builtIn = [...deps.roles.builtIns.values()]
    .filter((r) => r.permissions.includes(ACCOUNT_PERMISSION))
    .map((r) => r.id);
  const custom = await customRolesGranting(call.db, tenantId, ACCOUNT_PERMISSION);
  const granting = [...builtIn, ...custom];
  if (granting.length === 0) return 0;
  return countEnabledUsersHolding(call.db, tenantId, granting);
}

/**
 * Runs `change` (a user disabled or deleted, roles reassigned, a role deleted) and refuses it
 * with 409 `conflict` when it leaves the bootstrap tenant without an active account admin while
 * it had one; the thrown error rolls the call's transaction back, so nothing of it remains.
 * Changes of the bootstrap tenant's users and roles are serialised on its tenant row first, so
 * two admins disabling each other at once cannot both see the other as the one who remains;
 * taking that lock before any user row keeps the lock order the same for every change.
 */
export async function keepingAnAccountAdmin<T>(
  call: Call,
  deps: IdentityDeps,
  tenantId: string,
  change: () => Promise<T>,
): Promise<T> {
  if (tenantId !== deps.settings.bootstrap.tenantId) return change();
  await lockTenant(call.db, tenantId);
  const before = await countActiveAccountAdmins(call, deps, tenantId);
  const result = await change();
  if (before > 0 && (await countActiveAccountAdmins(call, deps, tenantId)) === 0) {
    throw new ApiError(
      'conflict',
      `This would leave tenant "${tenantId}" without an active account admin (a user, not disabled, holding a role that grants ${ACCOUNT_PERMISSION}). Give that role to another user first.`,
    );
  }
  return result;
}
