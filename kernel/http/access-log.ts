import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/**
 * One line per request. Only the method, route template, status, duration and ids are logged:
 * never headers, query strings or bodies, which may carry credentials.
 */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          route: ctx.state.routeTemplate ?? 'unmatched',
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
          subject: ctx.state.subjectId,
        },
        'request',
      );
    }
  };
}
