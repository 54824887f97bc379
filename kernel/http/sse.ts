import type { Context } from 'koa';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { toApiError } from '../errors.js';
import type { EventSource, ServerSentEvent } from '../types.js';

/**
 * Server-sent events for routes declared `stream: "sse"`. The handler runs through
 * authentication, tenancy, RBAC and validation like any GET, then answers
 * `{ status: 200, events: async function* (signal) { yield { id, event, data } } }`. A generator
 * was chosen over a writer handed to the handler because it gives backpressure for free: the
 * kernel asks for the next event only once the previous one is in the socket's buffer (a slow
 * client slows the producer down instead of growing memory), and the handler's code stays a
 * plain loop. `signal` aborts when the client goes away or the kernel shuts down; a handler
 * that waits for new data passes it on to whatever it awaits. While no event is due, a comment
 * line goes out every `heartbeat_ms` so proxies keep the connection open. An error thrown by the
 * generator ends the stream with an `error` event in the error shape (a 5xx hides its text).
 */
export interface EventStreams {
  /** Sends `events` as the response of `ctx`; resolves once the stream has ended. */
  send(ctx: Context, events: EventSource, headers?: Record<string, string>): Promise<void>;
  readonly size: number;
  /** Ends every open stream (shutdown); resolves once they have all ended. */
  close(): Promise<void>;
}

function singleLine(field: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new TypeError(`a server-sent event's ${field} must be one line without NUL`);
  return value;
}

/** One event in the text/event-stream format; multi-line data becomes several `data:` lines. */
export function formatEvent(event: ServerSentEvent): string {
  let out = '';
  if (event.id !== undefined) out += `id: ${singleLine('id', String(event.id))}\n`;
  if (event.event !== undefined) out += `event: ${singleLine('event', event.event)}\n`;
  if (event.retry !== undefined) out += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data ?? null);
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

const ABORTED = Symbol('aborted');

/** The promise's outcome, or ABORTED as soon as the signal aborts (a handler may ignore it). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Resolves true when the socket buffer has drained, false when the stream ended first. */
function drained(res: ServerResponse, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => (): void => {
      res.off('drain', onDrain);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onDrain = done(true);
    const onAbort = done(false);
    res.once('drain', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createEventStreams(options: { heartbeatMs: number; logger: Logger }): EventStreams {
  const { heartbeatMs, logger } = options;
  const live = new Map<AbortController, Promise<void>>();
  let closing = false;

  async function pump(ctx: Context, events: EventSource, controller: AbortController): Promise<void> {
    const { res } = ctx;
    const { signal } = controller;
    const heartbeat = setInterval(() => {
      if (!res.writableNeedDrain) res.write(': heartbeat\n\n');
    }, heartbeatMs);
    const onClose = (): void => controller.abort(new Error('client disconnected'));
    res.once('close', onClose);
    const iterator = events(signal)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await unlessAborted(iterator.next(), signal);
        if (next === ABORTED || next.done) break;
        if (!res.write(formatEvent(next.value)) && !(await drained(res, signal))) break;
      }
    } catch (err) {
      if (!signal.aborted) {
        const error = toApiError(err);
        logger.error({ err, requestId: ctx.state.requestId }, 'event stream failed');
        res.write(formatEvent({ event: 'error', data: error.toBody() }));
      }
    } finally {
      clearInterval(heartbeat);
      res.off('close', onClose);
      // Whatever the handler still waits on stops; a generator suspended at a yield runs its finally.
      if (!signal.aborted) controller.abort(new Error('stream ended'));
      iterator.return?.().catch(() => undefined);
      res.end();
    }
  }

  return {
    async send(ctx, events, headers = {}) {
      ctx.status = 200;
      ctx.res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      });
      // The response is written here, not by Koa, for as long as the stream lasts.
      ctx.respond = false;
      if (ctx.method === 'HEAD' || closing) {
        ctx.res.end();
        return;
      }
      ctx.res.flushHeaders();
      ctx.req.socket.setNoDelay(true);
      const controller = new AbortController();
      const done = pump(ctx, events, controller);
      live.set(controller, done);
      try {
        await done;
      } finally {
        live.delete(controller);
      }
    },

    get size() {
      return live.size;
    },

    async close() {
      closing = true;
      for (const controller of live.keys()) controller.abort(new Error('server shutting down'));
      await Promise.all(live.values());
    },
  };
}
