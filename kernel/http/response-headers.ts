import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

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
 * Sets RESPONSE_HEADERS before the route runs, so the reply and any error keep them. Straight
 * onto the Node response: Koa's ctx.set lower-cases the name on each call.
 */
export function setResponseHeaders(res: ServerResponse): void {
  for (const [name, value] of ENTRIES) res.setHeader(name, value);
}

/** RESPONSE_HEADERS as the flat name, value list Node's writeHead takes. */
const FLAT: readonly string[] = ENTRIES.flat();

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * The server's responses: each adds the request id and RESPONSE_HEADERS when its head is
 * written, whichever way it is written (a reply, an error, Koa's own answer, an event stream),
 * so every response carries them as if they had been set before the route ran; a header the
 * route set itself (its own Cache-Control) is kept. Added at that moment rather than set up
 * front because a JSON reply then writes its whole head in one writeHead call with a flat list,
 * which Node stores without building and validating a header map entry by entry: on /health
 * that map was the largest part of what the kernel adds to a bare Koa answer.
 */
export class StampedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Set by the app before the route runs; a response without one is written as it is. */
  requestId: string | undefined = undefined;

  override writeHead(statusCode: number, reason?: string | Head, head?: Head): this {
    const id = this.requestId;
    const given = typeof reason === 'string' ? head : reason;
    if (id !== undefined && Array.isArray(given) && this.getHeaderNames().length === 0) {
      const all = ['X-Request-Id', id, ...FLAT, ...(given as OutgoingHttpHeader[])];
      return typeof reason === 'string' ? super.writeHead(statusCode, reason, all) : super.writeHead(statusCode, all);
    }
    if (id !== undefined && !this.headersSent) {
      if (!this.hasHeader('x-request-id')) this.setHeader('X-Request-Id', id);
      for (const [name, value] of ENTRIES) if (!this.hasHeader(name)) this.setHeader(name, value);
    }
    return typeof reason === 'string' ? super.writeHead(statusCode, reason, head) : super.writeHead(statusCode, reason);
  }
}
