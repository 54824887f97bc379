import type { Knex } from 'knex';
import type { Logger } from 'pino';

/**
 * The advisory-lock space of lease holders' liveness locks (the first key of PostgreSQL's two-key
 * advisory locks; the second is the holder name's hash). Any constant no other code uses.
 */
export const LIVENESS_LOCK_SPACE = 1_801_807_467;

/** A raw connection of knex's pg client, outside the pool. */
interface RawConnection {
  query(sql: string, values?: readonly unknown[]): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): void;
}

interface RawClient {
  acquireRawConnection(): Promise<RawConnection>;
  destroyRawConnection(connection: RawConnection): Promise<void>;
}

const held = new WeakMap<Knex, RawConnection>();

/**
 * On PostgreSQL, a lease holder's proof of life: a session advisory lock, keyed by the holder's
 * name, on a connection of its own held for the life of the process. PostgreSQL frees the lock
 * when that session ends — the process stopped, crashed or was killed — so an instance that
 * starts can tell a holder that is gone from one that is slow, and take over the gone one's
 * leases at once (lease-store.ts, lapseGoneHolders) instead of waiting for them to lapse. The
 * embedded database needs none: its directory lock already proves every other holder gone.
 */
export async function holdLiveness(db: Knex, holder: string, logger: Logger): Promise<void> {
  const client = db.client as unknown as RawClient;
  const connection = await client.acquireRawConnection();
  connection.on('error', (err) =>
    logger.warn(
      { err },
      "lost the connection holding this instance's liveness lock: a starting instance may take its leases over",
    ),
  );
  await connection.query('SELECT pg_advisory_lock($1, hashtext($2))', [LIVENESS_LOCK_SPACE, holder]);
  held.set(db, connection);
}

/** Ends the liveness session (a clean stop: the leases themselves were released by the runner). */
export async function releaseLiveness(db: Knex): Promise<void> {
  const connection = held.get(db);
  if (!connection) return;
  held.delete(db);
  await (db.client as unknown as RawClient).destroyRawConnection(connection).catch(() => undefined);
}
