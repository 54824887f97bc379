import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

/** What an incoming X-Request-Id may look like to be kept. */
export const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes a sane incoming X-Request-Id or makes one, and echoes it on the response. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = ACCEPTABLE.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
