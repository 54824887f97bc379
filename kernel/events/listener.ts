import type { Logger } from 'pino';
import type { Database } from '../db/connect.js';
import { listenOnPostgres } from './listen-postgres.js';
import { listenOnEmbedded } from './listen-embedded.js';

/** What a listener reports. */
export interface ListenerHooks {
  /** A notification arrived on the channel. */
  notified(payload: string): void;
  /** The listening connection is (again) open: notifications sent while it was not are lost, so read now. */
  connected(): void;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * Listens on `channel`: on a server through a connection of its own (a pooled one would be
 * handed to other work), on the embedded database on its only connection.
 */
export function openListener(
  database: Database,
  url: string | undefined,
  channel: string,
  hooks: ListenerHooks,
  logger: Logger,
): Promise<Listener> {
  if (database.kind === 'postgres' && url) return listenOnPostgres(url, channel, hooks, logger);
  return listenOnEmbedded(database.knex, channel, hooks);
}
