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

const ENTRIES = Object.entries(RESPONSE_HEADERS);

/**
 * Sets RESPONSE_HEADERS before the rest of the chain runs, so the reply and any error keep them.
 * On every request: straight onto the Node response, handing back next()'s promise.
 */
export function responseHeaders(): Middleware {
  return (ctx, next) => {
    for (const [name, value] of ENTRIES) ctx.res.setHeader(name, value);
    return next();
  };
}
