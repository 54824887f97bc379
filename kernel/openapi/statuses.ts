import { takesJsonBody } from '../manifest/body.js';
import { AUTHENTICATED, PUBLIC } from '../manifest/types.js';
import type { CompiledRoute } from '../types.js';

/** Whether a call of the route can be refused with 403 by the kernel. */
function canForbid(route: CompiledRoute): boolean {
  const { permission, read_only: readOnly } = route.decl;
  if (permission === PUBLIC) return false;
  // A declared permission the caller lacks; a read-only credential on a route that changes
  // state; account-wide scope (`*`) without the account permission.
  return permission !== AUTHENTICATED || !readOnly || route.tenancy === 'tenant';
}

/** Whether the route reads a request body (JSON or raw bytes), which can be too large or mistyped. */
export function takesBody(route: CompiledRoute): boolean {
  return takesJsonBody(route) || route.decl.body_type === 'octet-stream' || route.decl.body_type === 'bytes';
}

/**
 * Every error status a route can answer, derived from the kernel steps its manifest gives it
 * plus the manifest's own `errors` list, so a new route is documented completely without
 * listing what the kernel does for it. `usesDatabase`: its plugin declares the db service.
 */
export function errorStatuses(route: CompiledRoute, usesDatabase: boolean): number[] {
  const statuses = new Set<number>(route.decl.errors ?? []);
  // Validation: every route has a query schema at least; hostile input is refused the same way.
  statuses.add(400);
  const authenticated = route.decl.permission !== PUBLIC;
  if (authenticated) statuses.add(401);
  if (canForbid(route)) statuses.add(403);
  // Another tenant's resource, a tenant that does not exist, or no resource under that id.
  if (route.tenancy === 'tenant' || route.schemas.params) statuses.add(404);
  if (takesBody(route)) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.mutating && route.idempotency !== 'none') {
    // The same key still in flight; the same key with another payload.
    statuses.add(409);
    statuses.add(422);
  }
  // An If-Match that names another version than the current one.
  if (route.decl.etag?.if_match) statuses.add(412);
  // A WebSocket route: a plain GET of it is told to upgrade; a subject at its socket cap is refused.
  if (route.decl.upgrade === 'websocket') {
    statuses.add(426);
    statuses.add(429);
  }
  statuses.add(500);
  // A dependency down: the credential chain and a write's transaction need the database (or an
  // identity provider), and so does any handler of a plugin that declares the db service.
  if (authenticated || route.mutating || usesDatabase) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}
