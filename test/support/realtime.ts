import { WebSocket, type ClientOptions } from 'ws';
import type { TestKernel } from './kernel.js';

/** The refusal of a WebSocket open: the HTTP answer the server gave instead of 101. */
export interface Refusal {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export type Opened = { socket: WebSocket; refusal?: undefined } | { socket?: undefined; refusal: Refusal };

/** Opens a WebSocket; resolves with the socket once open, or with the HTTP refusal. */
export function openSocket(tk: TestKernel, path: string, options: ClientOptions = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${tk.url.replace(/^http/, 'ws')}${path}`, options);
    // Listening from the start: a message the server sends on open may arrive with the handshake.
    inbox(socket);
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        resolve({ refusal: { status: res.statusCode ?? 0, headers: res.headers, body } });
        socket.terminate();
      });
    });
    socket.once('error', (err) => reject(err));
  });
}

/** Opens a WebSocket that must open. */
export async function mustOpen(tk: TestKernel, path: string, options: ClientOptions = {}): Promise<WebSocket> {
  const opened = await openSocket(tk, path, options);
  if (!opened.socket)
    throw new Error(`expected ${path} to open, got ${opened.refusal.status} ${JSON.stringify(opened.refusal.body)}`);
  return opened.socket;
}

/** Opens a WebSocket that must be refused; returns the refusal. */
export async function mustRefuse(tk: TestKernel, path: string, options: ClientOptions = {}): Promise<Refusal> {
  const opened = await openSocket(tk, path, options);
  if (opened.socket) {
    opened.socket.terminate();
    throw new Error(`expected ${path} to be refused, but it opened`);
  }
  return opened.refusal;
}

export interface Inbox {
  next(): Promise<{ data: Buffer; binary: boolean }>;
}

const inboxes = new WeakMap<WebSocket, Inbox>();

/** The socket's messages as they arrive, buffered so none is missed between awaits (one inbox per socket). */
export function inbox(socket: WebSocket): Inbox {
  const existing = inboxes.get(socket);
  if (existing) return existing;
  const queue: Array<{ data: Buffer; binary: boolean }> = [];
  const waiting: Array<{ resolve(m: { data: Buffer; binary: boolean }): void; reject(err: Error): void }> = [];
  let ended: Error | undefined;
  socket.on('message', (data, binary) => {
    const message = {
      data: Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]),
      binary,
    };
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queue.push(message);
  });
  // A socket that closes fails the awaited message at once, naming the close, rather than at the test's timeout.
  socket.on('close', (code, reason) => {
    ended = new Error(`the socket closed (${code} ${reason.toString()}) before the awaited message came`);
    for (const waiter of waiting.splice(0)) waiter.reject(ended);
  });
  const created: Inbox = {
    next() {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
  inboxes.set(socket, created);
  return created;
}

/** Resolves with the close code and reason once the socket has closed. */
export function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  if (socket.readyState === socket.CLOSED) return Promise.resolve({ code: 1006, reason: '' });
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Closes the socket from the client side and waits until it has closed. */
export async function shut(socket: WebSocket): Promise<void> {
  const done = closed(socket);
  socket.close();
  await done;
}

/** Mints a ticket over the fixture's POST /echo/tickets; throws unless 201. */
export async function mintTicket(
  tk: TestKernel,
  token: string,
  body: { room: string; channel?: string; tenant_id?: string },
): Promise<string> {
  const res = await tk.request('POST', '/echo/tickets', { token, body });
  if (res.status !== 201) throw new Error(`minting a ticket failed: ${res.status} ${res.text}`);
  return (res.body as { ticket: string }).ticket;
}

export interface ReceivedEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An open text/event-stream response, read event by event. */
export interface EventReader {
  status: number;
  headers: Headers;
  /** The next event, or undefined once the stream has ended; comment lines are counted, not returned. */
  next(): Promise<ReceivedEvent | undefined>;
  comments(): number;
  cancel(): Promise<void>;
}

/** Starts a GET of an event stream; `body` holds the error body when the status is not 200. */
export async function readEvents(tk: TestKernel, path: string, token?: string): Promise<EventReader & { body?: any }> {
  const controller = new AbortController();
  const response = await fetch(`${tk.url}${path}`, {
    headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: controller.signal,
  });
  if (response.status !== 200) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
      next: async () => undefined,
      comments: () => 0,
      cancel: async () => undefined,
    };
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let comments = 0;
  let ended = false;
  return {
    status: response.status,
    headers: response.headers,
    comments: () => comments,
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: ReceivedEvent = { data: '' };
          const data: string[] = [];
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              comments++;
              continue;
            }
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            fields++;
            if (name === 'data') data.push(value);
            else if (name === 'id') event.id = value;
            else if (name === 'event') event.event = value;
          }
          if (fields === 0) continue;
          event.data = data.join('\n');
          return event;
        }
        if (ended) return undefined;
        const { value, done } = await reader.read();
        if (done) ended = true;
        else buffer += decoder.decode(value, { stream: true });
      }
    },
    async cancel() {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}
