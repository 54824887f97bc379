import type pg from 'pg';
import type { Logger } from 'pino';
import type { Listener, ListenerHooks } from './listener.js';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;
/** A connection that went silent (a half-open TCP link) is found out by a ping this often. */
const PING_MS = 30_000;
/** How long opening the listener waits for its first LISTEN before the kernel goes on without it (polling covers). */
const FIRST_LISTEN_WAIT_MS = 2000;

/** The listening connection's application_name (operators find it in pg_stat_activity). */
export function listenerName(channel: string): string {
  return `runtime-kernel events ${channel}`.slice(0, 63);
}

/**
 * LISTEN on a dedicated connection that reconnects, with backoff, whenever it drops. The
 * notifications sent while it is down are lost; `connected` tells the reader to poll at once.
 * Resolves once the first LISTEN is in place (or failed, or took over FIRST_LISTEN_WAIT_MS): an
 * event published just after start would otherwise reach subscribers only through the poll,
 * later than and out of order with the events after it.
 */
export async function listenOnPostgres(
  url: string,
  channel: string,
  hooks: ListenerHooks,
  logger: Logger,
): Promise<Listener> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = FIRST_RETRY_MS;
  let closed = false;

  function reconnectLater(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, backoff);
    retry.unref();
    backoff = Math.min(backoff * 2, LAST_RETRY_MS);
  }

  function drop(dropped: pg.Client, err?: Error): void {
    if (client !== dropped) return;
    client = undefined;
    if (!closed) logger.warn({ err }, 'event listener connection lost; reconnecting (polling covers the gap)');
    dropped.end().catch(() => undefined);
    reconnectLater();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    // Imported here: a kernel on the embedded database never listens, and never loads pg.
    const { default: driver } = await import('pg');
    if (closed) return;
    const candidate = new driver.Client({
      connectionString: url,
      application_name: listenerName(channel),
      keepAlive: true,
      query_timeout: 10_000,
    });
    candidate.on('error', (err) => drop(candidate, err));
    candidate.on('end', () => drop(candidate));
    candidate.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) hooks.notified(message.payload);
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${candidate.escapeIdentifier(channel)}`);
    } catch (err) {
      logger.warn({ err }, 'event listener could not connect; retrying (polling covers the gap)');
      candidate.end().catch(() => undefined);
      reconnectLater();
      return;
    }
    if (closed) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    backoff = FIRST_RETRY_MS;
    hooks.connected();
  }

  const ping = setInterval(() => {
    const current = client;
    current?.query('SELECT 1').catch((err: Error) => drop(current, err));
  }, PING_MS);
  ping.unref();
  let bound: NodeJS.Timeout | undefined;
  await Promise.race([connect(), new Promise<void>((resolve) => (bound = setTimeout(resolve, FIRST_LISTEN_WAIT_MS)))]);
  clearTimeout(bound);

  return {
    async close() {
      closed = true;
      clearInterval(ping);
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
