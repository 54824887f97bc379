/**
 * Typed request input for handlers. Each plugin has a module generated from its manifest
 * (`plugins/<id>/generated/manifest-types.ts`, `npm run types:generate`) that describes every
 * operation's params, query and body as the kernel validates them; a handler map declared with
 * `operationHandlers<Operations>({...})` then reads `call.body`, `call.query` and `call.params`
 * already typed, a tenant-scoped route's `call.tenantId` as a string and a route that is not
 * public its `call.principal` as present.
 */
import type { Call, Handler, Principal, Reply } from '../types.js';

/** What the generated module says of one operation. */
export interface OperationTypes {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** True for a tenant-scoped route: the tenancy step sets `tenantId` before the handler runs. */
  tenant: boolean;
  /** True for a route that is not public: a credential (or a ticket) was checked, so `principal` is set. */
  authenticated: boolean;
}

/** A call on a tenant-scoped route, for helpers shared by several handlers. */
export type TenantCall = Call & { tenantId: string };

/** A call of one operation, its input as the validation step left it (defaults filled in). */
export type CallOf<O extends OperationTypes> = Omit<Call, 'params' | 'query' | 'body' | 'tenantId' | 'principal'> & {
  params: O['params'];
  query: O['query'];
  body: O['body'];
} & (O['tenant'] extends true ? { tenantId: string } : { tenantId?: string }) &
  (O['authenticated'] extends true ? { principal: Principal } : { principal?: Principal });

/** A handler of one operation (see Handler for `beforeTransaction` and `combinedWrite`). */
export type OperationHandler<O extends OperationTypes> = ((call: CallOf<O>) => Promise<Reply> | Reply) & {
  beforeTransaction?: (call: CallOf<O>) => Promise<void>;
  combinedWrite?: (call: CallOf<O>) => boolean;
};

/** Handlers by operationId; a plugin may split them over several maps and spread them together. */
export type OperationHandlers<Ops extends Record<string, OperationTypes>> = {
  [K in keyof Ops]?: OperationHandler<Ops[K]>;
};

/**
 * Declares handlers typed by the plugin's generated `Operations`. The one cast of request input
 * is here, and it holds: the kernel hands a handler only the calls of the operation it is
 * registered under, after the validation step checked params, query and body against that
 * operation's schemas (the ones the types are generated from; a test fails when they are stale),
 * after the authentication step set the principal of a route that is not public and, on a
 * tenant-scoped route, after the tenancy step set the tenant.
 */
export function operationHandlers<Ops extends Record<string, OperationTypes>>(
  handlers: OperationHandlers<Ops>,
): Record<string, Handler> {
  return handlers as unknown as Record<string, Handler>;
}
