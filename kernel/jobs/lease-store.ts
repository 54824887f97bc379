import type { Knex } from 'knex';
import type { CombinedWrite } from '../db/combined-write.js';
import type { Migration } from '../types.js';
import type { Lease } from './types.js';
import { LIVENESS_LOCK_SPACE } from './holder-liveness.js';

export const LEASES = 'kernel_leases';

/**
 * One row per lease: a job, or one key of a job (a stream partition, say). Rows stay after a
 * release so the epoch keeps growing; a lapsed or released row is simply free to take.
 */
export const leasesMigration: Migration = {
  name: '004_kernel_leases',
  async up(db) {
    await db.schema.createTable(LEASES, (t) => {
      t.text('name').notNullable();
      t.text('key').notNullable();
      t.text('holder').notNullable();
      /** The fencing token: grows by one whenever the lease is taken afresh. */
      t.bigInteger('epoch').notNullable();
      t.timestamp('acquired_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      /** When a job last started a run under this lease, on any instance (keeps its schedule across takeovers). */
      t.timestamp('ran_at', { useTz: true });
      t.primary(['name', 'key']);
    });
  },
  async down(db) {
    await db.schema.dropTable(LEASES);
  },
};

/** What a successful acquire returns: the lease, and how long ago a run last started under it. */
export interface Grant {
  lease: Lease;
  /** Milliseconds since a run last started under this lease (any holder), or null if none ever did. */
  sinceRunMs: number | null;
}

/** A refused acquire: who holds it and for how much longer (database time). */
export interface Refusal {
  remainingMs: number;
}

// Every expiry is computed by the database (now()), never from a local clock, so instances whose
// clocks disagree still agree on who holds a lease.
const TTL = `now() + ?::float8 * interval '1 millisecond'`;
const SAME_HOLDER_LIVE = `l.holder = excluded.holder AND l.expires_at > now()`;

interface AcquireRow {
  epoch: string | number | null;
  since_run_ms: string | number | null;
  remaining_ms: string | number | null;
}

/**
 * Takes the lease if it is free (never taken, lapsed or released) or already this holder's,
 * in one statement. Taking it afresh increments the epoch, so a former holder that lost it
 * can tell; renewing one's own live lease keeps it. A refusal tells how long the current
 * holder's lease still runs, so a standby can come back right when it lapses.
 */
export async function acquireLease(
  db: Knex,
  name: string,
  key: string,
  holder: string,
  ttlMs: number,
): Promise<Grant | Refusal> {
  const result = await db.raw(
    `WITH taken AS (
       INSERT INTO ${LEASES} AS l (name, key, holder, epoch, acquired_at, expires_at)
       VALUES (?, ?, ?, 1, now(), ${TTL})
       ON CONFLICT (name, key) DO UPDATE SET
         holder = excluded.holder,
         epoch = CASE WHEN ${SAME_HOLDER_LIVE} THEN l.epoch ELSE l.epoch + 1 END,
         acquired_at = CASE WHEN ${SAME_HOLDER_LIVE} THEN l.acquired_at ELSE now() END,
         expires_at = excluded.expires_at
       WHERE l.expires_at <= now() OR l.holder = excluded.holder
       RETURNING l.epoch, round(extract(epoch FROM now() - l.ran_at) * 1000) AS since_run_ms
     )
     SELECT epoch, since_run_ms, NULL AS remaining_ms FROM taken
     UNION ALL
     SELECT NULL, NULL, greatest(0, round(extract(epoch FROM c.expires_at - now()) * 1000))
       FROM ${LEASES} c
      WHERE c.name = ? AND c.key = ? AND NOT EXISTS (SELECT 1 FROM taken)`,
    [name, key, holder, ttlMs, name, key],
  );
  const row = (result.rows as AcquireRow[])[0];
  // No row at all: another instance created the lease after this statement's snapshot was taken.
  if (!row || row.epoch === null) return { remainingMs: Number(row?.remaining_ms ?? 0) };
  return {
    lease: { name, key, holder, epoch: Number(row.epoch) },
    sinceRunMs: row.since_run_ms === null ? null : Number(row.since_run_ms),
  };
}

/** Updates the lease row only while it is still this holder's at this epoch; tells whether it was. */
async function guarded(db: Knex, set: string, lease: Lease, bindings: readonly Knex.Value[]): Promise<boolean> {
  const result = await db.raw(
    `UPDATE ${LEASES} SET ${set} WHERE name = ? AND key = ? AND holder = ? AND epoch = ? RETURNING epoch`,
    [...bindings, lease.name, lease.key, lease.holder, lease.epoch],
  );
  return (result.rows as unknown[]).length === 1;
}

/**
 * Extends the lease. Refused once anyone else has taken it since (the epoch moved on). A lease
 * that lapsed but that nobody took is extended: nobody else can have acted under it meanwhile.
 */
export function renewLease(db: Knex, lease: Lease, ttlMs: number): Promise<boolean> {
  return guarded(db, `expires_at = ${TTL}`, lease, [ttlMs]);
}

/** Renews the lease and records that a run starts now (the job's schedule survives a takeover). */
export function markRun(db: Knex, lease: Lease, ttlMs: number): Promise<boolean> {
  return guarded(db, `expires_at = ${TTL}, ran_at = now()`, lease, [ttlMs]);
}

/** Frees the lease at once, so another instance need not wait for it to lapse. */
export function releaseLease(db: Knex, lease: Lease): Promise<boolean> {
  return guarded(db, `expires_at = now()`, lease, []);
}

const FENCE = `SELECT 1 FROM ${LEASES} WHERE name = ? AND key = ? AND holder = ? AND epoch = ? FOR SHARE`;

/**
 * Inside the caller's transaction: locks the lease row against any change (a takeover waits for
 * this transaction to end) and tells whether it is still this holder's at this epoch. Work that
 * commits only when this returns true cannot commit after another instance took over.
 */
export async function fenceLease(trx: Knex.Transaction, lease: Lease): Promise<boolean> {
  const result = await trx.raw(FENCE, [lease.name, lease.key, lease.holder, lease.epoch]);
  return (result.rows as unknown[]).length === 1;
}

/** The fence as the guard of a combined write: it commits nothing unless the lease is still ours (fenceLease's row lock). */
export function fenceLeaseIn(write: CombinedWrite, lease: Lease): void {
  write.add('lease_fence', FENCE, [lease.name, lease.key, lease.holder, lease.epoch], {
    guard: true,
    orTransaction: true,
  });
}

/** Who holds the lease now; null when nobody does (never taken, lapsed or released). */
export async function leaseHolder(
  db: Knex,
  name: string,
  key: string,
): Promise<{ holder: string; epoch: number } | null> {
  const result = await db.raw(`SELECT holder, epoch FROM ${LEASES} WHERE name = ? AND key = ? AND expires_at > now()`, [
    name,
    key,
  ]);
  const row = (result.rows as Array<{ holder: string; epoch: string | number }>)[0];
  return row ? { holder: row.holder, epoch: Number(row.epoch) } : null;
}

/** How many live leases carry this name (the instances present, for the presence lease). */
export async function countLive(db: Knex, name: string): Promise<number> {
  const result = await db.raw(`SELECT count(*)::integer AS n FROM ${LEASES} WHERE name = ? AND expires_at > now()`, [
    name,
  ]);
  return Number((result.rows as Array<{ n: number }>)[0]?.n ?? 0);
}

/** Deletes leases of this name that lapsed long ago (presence rows of instances gone for good). */
export async function pruneLapsed(db: Knex, name: string, olderThanMs: number): Promise<void> {
  await db.raw(`DELETE FROM ${LEASES} WHERE name = ? AND expires_at < now() - ?::float8 * interval '1 millisecond'`, [
    name,
    olderThanMs,
  ]);
}

/**
 * Lapses every live lease another holder has. Only for a database one process alone can use (the
 * embedded one: its directory lock, taken before this runs, proves every other holder dead), so
 * a restart takes over at once what the killed process held instead of waiting for its leases to
 * expire. Epochs are untouched: taking a lease afresh still increments it, so the fence holds.
 */
export async function lapseOtherHolders(db: Knex, holder: string): Promise<number> {
  return db(LEASES).where('expires_at', '>', db.fn.now()).whereNot({ holder }).update({ expires_at: db.fn.now() });
}

/**
 * Lapses the live leases of every other holder that is gone, on PostgreSQL: a holder keeps a
 * liveness lock for as long as its process lives (holder-liveness.ts), so a lock this session can
 * take (and gives back at once) proves its holder gone. A holder whose lock is held — alive, or
 * sharing its name's hash with one that is — keeps its leases until they lapse, as before.
 */
export async function lapseGoneHolders(db: Knex, holder: string): Promise<number> {
  const result = (await db.raw(
    `WITH gone AS (
       SELECT h.holder FROM (SELECT DISTINCT holder FROM ${LEASES} WHERE expires_at > now() AND holder <> ?) h
        WHERE CASE WHEN pg_try_advisory_lock(?, hashtext(h.holder)) THEN pg_advisory_unlock(?, hashtext(h.holder)) ELSE false END
     )
     UPDATE ${LEASES} l SET expires_at = now() FROM gone WHERE l.holder = gone.holder AND l.expires_at > now()
     RETURNING l.name`,
    [holder, LIVENESS_LOCK_SPACE, LIVENESS_LOCK_SPACE],
  )) as { rows: unknown[] };
  return result.rows.length;
}
