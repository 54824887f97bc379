import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError, toApiError } from '../errors.js';

/** Writes an ApiError as the spec's error body with its headers. */
export function writeError(ctx: Parameters<Middleware>[0], error: ApiError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.body = error.toBody();
}

/**
 * Every error becomes `{"error":{code,message,status}}`. Errors Koa itself raises (such as a
 * client that aborts) are mapped by status; a 5xx never shows its cause to the client but is
 * logged with the request id.
 */
export function errorBoundary(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500) logger.error({ err: error.cause ?? err, requestId: ctx.state.requestId }, 'request failed');
      writeError(ctx, error);
    }
  };
}

