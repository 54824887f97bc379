import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from './errors.js';
import { newCall } from './pipeline/call.js';
import type { Authenticator, Call, Catalog, Dispatcher, Principal, Reply } from './types.js';

/** Runs one call through a route's composed pipeline. */
export type RouteRunner = (call: Call) => Promise<Reply>;

/**
 * Calls any operation without HTTP (the MCP server does): the same pipeline as over HTTP, so a
 * tool call is authenticated, authorised, validated and audited exactly like a request.
 */
export function createDispatcher(
  catalog: Catalog,
  runners: ReadonlyMap<string, RouteRunner>,
  db: Knex,
): { dispatcher: Dispatcher; delegation: Authenticator } {
  // Principals handed to dispatched calls (DispatchRequest.principal). Only the dispatcher can
  // put one here, never a header; the first link of the chain hands it to the call.
  const delegated = new WeakMap<Call, Principal>();
  const delegation: Authenticator = { name: 'delegated', authenticate: async (call) => delegated.get(call) ?? null };
  const dispatcher: Dispatcher = {
    async dispatch(request) {
      const route = catalog.byOperation(request.operation);
      const run = route && runners.get(request.operation);
      if (!route || !run) throw new ApiError('not_found', `No operation ${request.operation}.`);
      const call = newCall(
        {
          route,
          transport: request.transport,
          requestId: request.requestId ?? randomUUID(),
          method: route.decl.method,
          path: route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) =>
            encodeURIComponent(String(request.params?.[name] ?? '')),
          ),
          params: { ...(request.params ?? {}) },
          query: { ...(request.query ?? {}) },
          headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
          body: request.body,
        },
        db,
      );
      if (request.principal) delegated.set(call, request.principal);
      return run(call);
    },
  };
  return { dispatcher, delegation };
}
