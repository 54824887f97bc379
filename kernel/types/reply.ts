/** What a handler answers: a body, or a stream of server-sent events, or a WebSocket session. */
import type { WebSocket } from 'ws';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A route declared `stream: "sse"` answers 200 with this instead of a body: the kernel pulls
   * one event at a time (never faster than the client reads), sends heartbeat comments while it
   * waits, and aborts `signal` when the client goes away or the kernel shuts down.
   */
  events?: EventSource;
  /** A route declared `upgrade: "websocket"` answers with this: it takes the socket once the upgrade is done. */
  websocket?: SocketSession;
  /** `Set-Cookie` values, one per cookie (a header that repeats, so it has no place in `headers`); HTTP only. */
  cookies?: readonly string[];
}

/** One server-sent event; `data` is sent as is when a string, as JSON otherwise. */
export interface ServerSentEvent {
  id?: string | number;
  event?: string;
  data: unknown;
  /** Reconnection delay the client should use, in milliseconds. */
  retry?: number;
}

/** What a streamed route's handler returns: an async generator, typically, that honours `signal`. */
export type EventSource = (signal: AbortSignal) => AsyncIterable<ServerSentEvent>;

/**
 * Runs one WebSocket connection (the `ws` package's socket). The kernel has checked the ticket,
 * tenancy and RBAC before; it pings the peer, enforces the payload limit and closes the socket
 * when its credential is revoked or the kernel shuts down, so the session only listens for 'close'.
 */
export type SocketSession = (socket: WebSocket) => void;
