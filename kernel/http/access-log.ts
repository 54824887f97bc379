import type { Context } from 'koa';
import type { Logger } from 'pino';

/**
 * One line per request, written once its response is decided. Only the method, route template,
 * status, duration and ids are logged: never headers, query strings or bodies, which may carry
 * credentials.
 */
export function accessLog(logger: Logger): (ctx: Context, ms: number) => void {
  return (ctx, ms) => {
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
  };
}
