import { ApiError } from '../../errors.js';
import { AUTHENTICATED, PUBLIC } from '../../manifest/types.js';
import type { StepFactory } from '../../types.js';

/** RBAC: the route's declared permission must be held; denied → 403 naming the permission. */
export const authorizeStep: StepFactory = (route) => {
  const permission = route.decl.permission;
  if (permission === PUBLIC) return null;
  const readOnlyRoute = route.decl.read_only;
  return (call, next) => {
    const principal = call.principal;
    if (!principal) throw new ApiError('authentication_required');
    if (principal.readOnly && !readOnlyRoute) {
      throw new ApiError('forbidden', `This credential is read-only; ${route.decl.operation} changes state.`);
    }
    if (permission !== AUTHENTICATED) {
      call.notes.permissionChecked = permission;
      if (!principal.permissions.has(permission))
        throw new ApiError('forbidden', `This call needs the permission ${permission}.`);
    }
    return next();
  };
};
