import type { Knex } from 'knex';
import type { Listener, ListenerHooks } from './listener.js';

interface NotifyingDatabase {
  onNotification(callback: (channel: string, payload: string) => void): () => void;
}

/** The PGlite instance behind a knex-pglite handle (the driver keeps it as `client.pglite`). */
function embeddedInstance(knex: Knex): NotifyingDatabase {
  const pglite: unknown = (knex.client as { pglite?: unknown }).pglite;
  if (typeof pglite !== 'object' || pglite === null || typeof (pglite as Partial<NotifyingDatabase>).onNotification !== 'function') {
    throw new Error('the embedded database does not offer notifications (knex-pglite no longer exposes client.pglite)');
  }
  return pglite as NotifyingDatabase;
}

/**
 * LISTEN on the embedded database. Its one connection also serves every query, so LISTEN goes
 * through knex like any statement (never in the middle of someone's transaction). A notification
 * cannot be lost in-process; polling stays on all the same, for one code path.
 */
export async function listenOnEmbedded(knex: Knex, channel: string, hooks: ListenerHooks): Promise<Listener> {
  const pglite = embeddedInstance(knex);
  const stop = pglite.onNotification((name, payload) => {
    if (name === channel) hooks.notified(payload);
  });
  await knex.raw('LISTEN ??', [channel]);
  hooks.connected();
  return {
    // No UNLISTEN: other readers in this process (tests run two on one database) share the session.
    async close() {
      stop();
    },
  };
}
