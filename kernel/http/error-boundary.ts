import type { Context } from 'koa';
import type { Logger } from 'pino';
import { type ApiError, toApiError } from '../errors.js';

/** Writes an ApiError as the spec's error body with its headers. */
export function writeError(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.body = error.toBody();
}

/** The failure behind a 503, short: its error code, or pg's own message without knex's SQL prefix. */
function causeOf(error: ApiError): string {
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  const message = typeof cause?.message === 'string' ? cause.message : error.message;
  const separator = message.lastIndexOf(' - ');
  return separator === -1 ? message : message.slice(separator + 3);
}

/**
 * Every error becomes `{"error":{code,message,status}}`. Errors Koa itself raises (such as a
 * client that aborts) are mapped by status; a 5xx never shows its cause to the client but is
 * logged with the request id. Returns the answer the app's request frame gives a failed request.
 */
export function errorBoundary(logger: Logger): (ctx: Context, err: unknown) => void {
  return (ctx, err) => {
    const error = toApiError(err);
    if (error.code === 'unavailable') {
      // Expected while a dependency is down (/ready says so too): one line per call, no stack,
      // and not the failed statement knex writes into the message (its values may be secrets).
      logger.warn(
        { cause: causeOf(error), requestId: ctx.state.requestId },
        'request refused: a dependency is unavailable',
      );
    } else if (error.status >= 500) {
      logger.error({ err: error.cause ?? err, requestId: ctx.state.requestId }, 'request failed');
    }
    writeError(ctx, error);
  };
}
