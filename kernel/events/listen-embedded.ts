import type { Knex } from 'knex';
import type { Listener, ListenerHooks } from './listener.js';

/**
 * Listeners of the embedded databases in this process, per database and channel. An embedded
 * database has exactly one user, this process (its directory is locked against a second), so a
 * notification needs no NOTIFY: the writer hands the event to the listeners once its transaction
 * has committed. PGlite's NOTIFY goes through the server's notification queue on disk, a large
 * share of a small write's cost there; a function call costs nothing.
 */
const listeners = new WeakMap<object, Map<string, Set<ListenerHooks>>>();

/** The object that identifies the embedded database behind a knex handle (the PGlite instance, knex-pglite keeps it as `client.pglite`). */
function databaseOf(knex: Knex): object {
  const pglite: unknown = (knex.client as { pglite?: unknown }).pglite;
  if (typeof pglite !== 'object' || pglite === null)
    throw new Error(
      'the embedded database is not reachable through knex (knex-pglite no longer exposes client.pglite)',
    );
  return pglite;
}

function channelsOf(knex: Knex): Map<string, Set<ListenerHooks>> {
  const database = databaseOf(knex);
  let channels = listeners.get(database);
  if (!channels) listeners.set(database, (channels = new Map()));
  return channels;
}

/** Listens on `channel` of the embedded database: from now on, every committed event's notification reaches `hooks`. */
export async function listenOnEmbedded(knex: Knex, channel: string, hooks: ListenerHooks): Promise<Listener> {
  const channels = channelsOf(knex);
  let hooksOfChannel = channels.get(channel);
  if (!hooksOfChannel) channels.set(channel, (hooksOfChannel = new Set()));
  hooksOfChannel.add(hooks);
  hooks.connected();
  return {
    async close() {
      hooksOfChannel.delete(hooks);
    },
  };
}

/** Tells the embedded database's listeners on `channel` (in this process: the only ones there are). Call it after the commit. */
export function notifyEmbedded(knex: Knex, channel: string, payload: string): void {
  for (const hooks of channelsOf(knex).get(channel) ?? []) hooks.notified(payload);
}
