import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { KernelConfig } from '../config/types.js';
import type { Realtime } from '../realtime/index.js';
import { answerClientErrors } from './client-error.js';
import { StampedResponse } from './response-headers.js';

export interface HttpServer {
  /** Starts serving on the configured host and port; resolves with the bound address. */
  listen(): Promise<{ port: number; url: string }>;
  /** Stops taking connections, closes WebSockets and streams, and drains the rest within the grace. */
  drain(): Promise<void>;
}

const KEEP_ALIVE_MS = 65_000;

/** The HTTP server's lifecycle: listening, and draining on shutdown (in-flight requests finish). */
export function createHttpServer(input: {
  app: Koa;
  config: Readonly<KernelConfig>;
  logger: Logger;
  realtime: Realtime;
}): HttpServer {
  const { app, config, logger, realtime } = input;
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    listen() {
      return new Promise((resolve, reject) => {
        const s = createServer({ ServerResponse: StampedResponse });
        // An idle kept-alive connection stays open longer than clients keep theirs (fetch/undici
        // 4 s, proxies and load balancers commonly 60 s), so the client always closes first: a
        // server closing at 5 s (Node's default) races a client reusing the socket, and on a
        // loaded machine that request fails with a reset.
        s.keepAliveTimeout = KEEP_ALIVE_MS;
        s.headersTimeout = KEEP_ALIVE_MS + 1000;
        server = s;
        s.on('request', answerClientErrors(s, logger, app.callback()));
        s.on('upgrade', realtime.upgradeListener(app.callback()));
        s.on('connection', (socket: Socket) => {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
        });
        s.once('error', reject);
        s.once('listening', () => {
          const { port } = s.address() as AddressInfo;
          const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
          resolve({ port, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}` });
        });
        s.listen(config.http.port, config.http.host);
      });
    },
    async drain() {
      if (!server) {
        await realtime.close();
        return;
      }
      const s = server;
      const drained = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeIdleConnections();
      // WebSockets and event streams never end by themselves: they are closed first.
      await realtime.close();
      s.closeIdleConnections();
      const grace = setTimeout(() => s.closeAllConnections(), config.http.shutdown_grace_ms);
      await drained;
      clearTimeout(grace);
      for (const socket of sockets) socket.destroy();
    },
  };
}
