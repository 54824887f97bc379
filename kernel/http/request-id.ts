import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

/** What an incoming X-Request-Id may look like to be kept. */
export const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes a sane incoming X-Request-Id or makes one, and echoes it on the response. Every request
 * passes here, so it reads and writes the Node objects directly (Koa's ctx.get/ctx.set
 * lower-case the name each call) and hands back next()'s promise rather than awaiting it.
 */
export function requestId(): Middleware {
  return (ctx, next) => {
    const incoming = ctx.req.headers['x-request-id'];
    const id = typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.res.setHeader('X-Request-Id', id);
    return next();
  };
}
