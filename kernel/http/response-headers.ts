import type { Middleware } from 'koa';

/**
 * Headers on every response the service writes, errors included. `nosniff`: a browser never
 * reads a JSON body as HTML or script. `no-store`: no browser or proxy cache keeps a copy,
 * because nearly every response holds tenant data or credentials, and the few public ones are
 * live state (`/health`, `/live`, `/ready`, `/metrics`) whose stale copy would mislead a load
 * balancer or a monitor; one rule without exceptions cannot be forgotten on a new route. A
 * route may still set its own Cache-Control on its reply.
 */
export const RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});

/** Sets RESPONSE_HEADERS before the rest of the chain runs, so the reply and any error keep them. */
export function responseHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(RESPONSE_HEADERS);
    await next();
  };
}
