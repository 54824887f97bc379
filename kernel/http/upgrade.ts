import { randomUUID } from 'node:crypto';
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import type { Duplex } from 'node:stream';
import { Router } from '@koa/router';
import type { Logger } from 'pino';
import { createRequire } from 'node:module';
import type { WebSocketServer } from 'ws';
import { ApiError, toApiError } from '../errors.js';
import { routerPath } from '../manifest/compile.js';
import { newCall } from '../pipeline/call.js';
import { closeSocket, CLOSE_INTERNAL_ERROR, type SocketRegistry } from '../realtime/sockets.js';
import type { OriginCheck } from './origin.js';
import { ACCEPTABLE as ACCEPTABLE_REQUEST_ID } from './request-id.js';
import type { MountedRoute } from './router.js';

const require = createRequire(import.meta.url);

export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

function isWebSocketOpen(req: IncomingMessage): boolean {
  return req.method === 'GET' && req.headers.upgrade?.toLowerCase() === 'websocket';
}

/** Checked before the ticket is spent, so a malformed handshake does not use one up. */
function isValidHandshake(req: IncomingMessage): boolean {
  return WEBSOCKET_KEY.test(req.headers['sec-websocket-key'] ?? '') && req.headers['sec-websocket-version'] === '13';
}

/**
 * An HTTP response on a connection Node handed over as upgraded. A request that asks for
 * another protocol (`Upgrade: h2c`) or for a path that is no WebSocket route is answered as a
 * plain request by the Koa app, as a server that ignores `Upgrade` would; refusals of a
 * WebSocket open are written the same way. The connection closes after the response.
 */
function plainResponse(req: IncomingMessage, socket: Duplex, head: Buffer): ServerResponse {
  if (head.length > 0) socket.unshift(head);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  return res;
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(text
      ? { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) }
      : {}),
  });
  res.end(text);
}

/**
 * The HTTP server's 'upgrade' listener: opens the manifest's WebSocket routes. In order: the
 * route is matched, `Origin` checked (403), the route's pipeline run — ticket, tenancy, RBAC,
 * validation, then the handler, which may still refuse — the subject's socket slot taken
 * (429), and only then is the connection upgraded and handed to the handler's session. Every
 * refusal is an ordinary HTTP answer in the error shape, before any upgrade.
 */
export function createUpgradeListener(input: {
  mounted: readonly MountedRoute[];
  sockets: SocketRegistry;
  origins: OriginCheck;
  maxPayloadBytes: number;
  logger: Logger;
  /** Serves upgrade requests that are not WebSocket opens of a route (the Koa app). */
  plain: RequestListener;
}): UpgradeListener {
  const { sockets, origins, logger } = input;
  const router = new Router();
  const byLayer = new Map<unknown, MountedRoute>();
  for (const mounted of input.mounted)
    byLayer.set(
      router.register(routerPath(mounted.route.decl.path), ['GET'], () => undefined),
      mounted,
    );
  // clientTracking off: the socket registry is what tracks them. maxPayload makes ws close an
  // oversized message's socket with 1009 before buffering it.
  // `ws` is loaded on the first WebSocket open: most instances never serve one.
  let wss: WebSocketServer | undefined;
  const server = (): WebSocketServer => {
    if (!wss) {
      const { WebSocketServer: Server } = require('ws') as typeof import('ws');
      wss = new Server({
        noServer: true,
        clientTracking: false,
        maxPayload: input.maxPayloadBytes,
        perMessageDeflate: false,
      });
    }
    return wss;
  };

  function match(
    req: IncomingMessage,
  ): { mounted: MountedRoute; params: Record<string, string>; url: URL } | undefined {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://upgrade.invalid');
    } catch {
      return undefined;
    }
    const found = router.match(url.pathname, 'GET');
    const layer = found.pathAndMethod[found.pathAndMethod.length - 1];
    const mounted = layer && byLayer.get(layer);
    if (!layer || !mounted) return undefined;
    return {
      mounted,
      params: layer.params(url.pathname, layer.captures(url.pathname), {}) as Record<string, string>,
      url,
    };
  }

  async function open(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    target: NonNullable<ReturnType<typeof match>>,
  ): Promise<void> {
    const { route, run } = target.mounted;
    const started = process.hrtime.bigint();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    let status = 101;
    let subject: string | undefined;
    try {
      const origin = req.headers.origin;
      if (!origins(origin))
        throw new ApiError(
          'forbidden',
          `Origin ${String(origin).slice(0, 200)} may not open WebSockets here; list it in http.websocket.allowed_origins.`,
        );
      if (!isValidHandshake(req))
        throw new ApiError(
          'bad_request',
          'Not a WebSocket handshake: it needs Sec-WebSocket-Key and Sec-WebSocket-Version 13.',
        );
      const call = newCall(
        {
          route,
          transport: 'http',
          requestId,
          method: 'GET',
          path: target.url.pathname,
          params: target.params,
          query: { ...parseQuery(target.url.search.slice(1)) },
          headers: req.headers as Record<string, string | undefined>,
          body: undefined,
        },
        target.mounted.db,
      );
      const reply = await run(call);
      const principal = call.principal;
      subject = principal?.subjectId;
      const session = reply.websocket;
      if (!session || !principal) {
        if (reply.status < 400)
          throw new Error(
            `operation ${route.decl.operation}: a WebSocket route's handler must answer with a websocket session or an error`,
          );
        status = reply.status;
        writeJson(plainResponse(req, socket, head), reply.status, reply.body, {
          ...(reply.headers ?? {}),
          'X-Request-Id': requestId,
        });
        return;
      }
      const release = sockets.reserve(principal);
      if (!release)
        throw new ApiError(
          'too_many_requests',
          'This subject has as many WebSockets open as it may; close one first.',
          { headers: { 'Retry-After': '5' } },
        );
      // The slot is held as long as the connection, whatever happens from here on.
      socket.once('close', release);
      server().handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', (err) => logger.debug({ err, requestId }, 'websocket error'));
        ws.once('close', (code) => logger.debug({ requestId, route: route.path, code }, 'websocket closed'));
        sockets.track(ws, principal);
        try {
          session(ws);
        } catch (err) {
          logger.error({ err, requestId, operation: route.decl.operation }, 'websocket session failed to start');
          void closeSocket(ws, CLOSE_INTERNAL_ERROR, 'internal error');
        }
      });
    } catch (err) {
      const error = toApiError(err);
      status = error.status;
      if (status >= 500) logger.error({ err, requestId, operation: route.decl.operation }, 'websocket upgrade failed');
      if (socket.writable)
        writeJson(plainResponse(req, socket, head), error.status, error.toBody(), {
          ...error.headers,
          'X-Request-Id': requestId,
        });
      else socket.destroy();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          { requestId, method: 'GET', route: route.path, status, ms: Math.round(ms * 100) / 100, subject },
          'request',
        );
      }
    }
  }

  return (req, socket, head) => {
    // A peer that vanishes mid-way must not take the process down with an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    const target = isWebSocketOpen(req) ? match(req) : undefined;
    if (!target) {
      input.plain(req, plainResponse(req, socket, head));
      return;
    }
    open(req, socket, head, target).catch((err: unknown) => {
      logger.error({ err }, 'websocket upgrade could not be answered');
      socket.destroy();
    });
  };
}
