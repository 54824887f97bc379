import type { RequestListener } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { KernelConfig } from '../config/types.js';
import { originCheck } from '../http/origin.js';
import type { MountedRoute } from '../http/router.js';
import { createEventStreams, type EventStreams } from '../http/sse.js';
import { createUpgradeListener, type UpgradeListener } from '../http/upgrade.js';
import type { Authenticator, Clock } from '../types.js';
import { createSocketRegistry } from './sockets.js';
import type { TicketStore } from './tickets.js';

/** The long-lived connections of one instance: WebSockets and event streams. */
export interface Realtime {
  streams: EventStreams;
  /** The HTTP server's 'upgrade' listener; `plain` serves upgrade requests that open no WebSocket. */
  upgradeListener(plain: RequestListener): UpgradeListener;
  /** Closes every socket (1001) and ends every stream; the server then drains. */
  close(): Promise<void>;
}

export function createRealtime(input: {
  config: Readonly<KernelConfig>;
  logger: Logger;
  db: Knex;
  clock: Clock;
  metrics: Registry;
  tickets: TicketStore;
  mounted: readonly MountedRoute[];
  authenticators: () => readonly Authenticator[];
}): Realtime {
  const { config, logger, db } = input;
  const ws = config.http.websocket;
  const sockets = createSocketRegistry({
    db,
    logger: logger.child({ component: 'websocket' }),
    limits: {
      maxPerSubject: ws.max_sockets_per_subject,
      pingIntervalMs: ws.ping_interval_ms,
      revalidateIntervalMs: ws.revalidate_interval_ms,
    },
    authenticators: input.authenticators,
  });
  const streams = createEventStreams({ heartbeatMs: config.http.sse.heartbeat_ms, logger });
  new Gauge({
    name: 'websocket_open_sockets',
    help: 'WebSockets open on this instance.',
    registers: [input.metrics],
    collect() {
      this.set(sockets.size);
    },
  });
  new Gauge({
    name: 'sse_open_streams',
    help: 'Server-sent event streams open on this instance.',
    registers: [input.metrics],
    collect() {
      this.set(streams.size);
    },
  });

  const socketRoutes = input.mounted.filter((m) => m.route.decl.upgrade === 'websocket');
  // Tickets exist only where a WebSocket route does.

  return {
    streams,
    upgradeListener(plain) {
      return createUpgradeListener({
        mounted: socketRoutes,
        sockets,
        origins: originCheck({ allowed: ws.allowed_origins, loopback: ws.allow_loopback_origins }),
        maxPayloadBytes: ws.max_payload_bytes,
        logger,
        plain,
      });
    },
    async close() {
      await Promise.all([sockets.close(), streams.close()]);
    },
  };
}
