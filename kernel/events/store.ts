import type { Knex } from 'knex';
import type { Migration } from '../types.js';
import type { CombinedWrite } from '../db/combined-write.js';

export const EVENTS = 'kernel_events';

/**
 * Events are rows: a notification only says "look", so an instance that missed one (its listening
 * connection dropped) still reads the event when it polls. `xact` is the writing transaction, the
 * order readers follow (see `readAfter`).
 */
export const eventsMigration: Migration = {
  name: '005_kernel_events',
  async up(db) {
    await db.schema.createTable(EVENTS, (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('xact').notNullable().defaultTo(db.raw('pg_current_xact_id()::text::bigint'));
      t.text('topic').notNullable();
      t.jsonb('payload').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.raw('now()'));
      t.index(['xact', 'id'], 'kernel_events_position');
      t.index(['created_at'], 'kernel_events_created');
    });
  },
  async down(db) {
    await db.schema.dropTable(EVENTS);
  },
};

/** Where a reader stands: every event at or before (xact, id) has been read. */
export interface Position {
  xact: number;
  id: number;
}

export interface EventRow {
  id: number;
  xact: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

interface RawRow {
  id: string | number;
  xact: string | number;
  topic: string;
  payload: unknown;
  created_at: Date | string;
}

const toRow = (r: RawRow): EventRow => ({
  id: Number(r.id),
  xact: Number(r.xact),
  topic: r.topic,
  payload: r.payload,
  created_at: new Date(r.created_at),
});

/** Past any id: a position (x, LAST_ID) means "everything of transactions up to x". */
export const LAST_ID = Number.MAX_SAFE_INTEGER;

const HORIZON = 'pg_snapshot_xmin(pg_current_snapshot())::text::bigint';

/**
 * Below PostgreSQL's 8,000-byte limit on a notification's payload, with room for the row's other
 * fields: an event this small travels inside its notification.
 */
const INLINE_NOTIFY_BYTES = 7900;

/** The event's insert, returning the row its notification is made of. */
const INSERT_EVENT = `INSERT INTO ${EVENTS} (topic, payload) VALUES (?, ?::jsonb) RETURNING id, xact, topic, payload, created_at`;

/** An inserted event (`e`) as a notification carries it. */
const ROW_TEXT = `json_build_object('id', e.id, 'xact', e.xact, 'topic', e.topic, 'payload', e.payload, 'created_at', e.created_at)::text`;

/** Notifies `channel` (the one binding) of each row of `inserted`, the rows INSERT_EVENT returned. */
function notifySelect(inserted: string): string {
  return `SELECT e.id, pg_notify(?, CASE WHEN octet_length(${ROW_TEXT}) <= ${INLINE_NOTIFY_BYTES} THEN ${ROW_TEXT} ELSE e.id::text END) FROM ${inserted} AS e`;
}

/**
 * Inserts the event and notifies `channel`, in one statement of the caller's transaction;
 * PostgreSQL sends the notification only when that transaction commits. A small event's
 * notification carries the whole row as JSON, so listeners deliver it without reading it back
 * (one statement fewer per event on every instance); a larger one's carries only its id.
 */
export async function insertEvent(
  db: Knex | Knex.Transaction,
  channel: string,
  topic: string,
  payload: string,
): Promise<string> {
  const result = await db.raw(`WITH inserted AS (${INSERT_EVENT}) ${notifySelect('inserted')}`, [
    topic,
    payload,
    channel,
  ]);
  return String((result.rows as Array<{ id: string | number }>)[0]?.id);
}

/**
 * Inserts the event without a NOTIFY (the embedded database: the caller tells its listeners once
 * the transaction commits); answers the id and the row as a notification carries it.
 */
export async function insertEventRow(
  db: Knex | Knex.Transaction,
  topic: string,
  payload: string,
): Promise<{ id: string; row: string }> {
  const result = await db.raw(`WITH inserted AS (${INSERT_EVENT}) SELECT e.id, ${ROW_TEXT} AS row FROM inserted AS e`, [
    topic,
    payload,
  ]);
  const inserted = (result.rows as Array<{ id: string | number; row: string }>)[0];
  return { id: String(inserted?.id), row: String(inserted?.row) };
}

/** The insert and its notification as parts of a combined write (they commit with the call's other writes). */
export function addEvent(write: CombinedWrite, channel: string, topic: string, payload: string): void {
  const inserted = write.add('kernel_event', INSERT_EVENT, [topic, payload]);
  write.add('kernel_event_notify', notifySelect(inserted), [channel], { read: true });
}

/** The insert as a part of a combined write, without a NOTIFY: `committed` gets the row as a notification carries it. */
export function addEventRow(
  write: CombinedWrite,
  topic: string,
  payload: string,
  committed: (row: string) => void,
): void {
  const inserted = write.add('kernel_event', INSERT_EVENT, [topic, payload]);
  write.add('kernel_event_row', `SELECT ${ROW_TEXT} AS row FROM ${inserted} AS e`, [], {
    committedRows: (rows) => rows.forEach((r) => committed(String(r.row))),
  });
}

/** What a notification says: the whole event (a small one), or the id of one to read. */
export function parseNotification(text: string): { row: EventRow } | { id: number } | undefined {
  if (!text.startsWith('{')) {
    const id = Number(text);
    return Number.isSafeInteger(id) ? { id } : undefined;
  }
  try {
    return { row: toRow(JSON.parse(text) as RawRow) };
  } catch {
    return undefined;
  }
}

/**
 * Where a new reader starts: after everything of the transactions already finished, so it sees
 * the events of those still running and of every later one.
 */
export async function currentPosition(db: Knex): Promise<Position> {
  const result = await db.raw(`SELECT ${HORIZON} - 1 AS xact`);
  return { xact: Number((result.rows as Array<{ xact: string | number }>)[0]?.xact), id: LAST_ID };
}

/**
 * The id the next transaction to start will get: every transaction that committed before this
 * call has a smaller one, so a reader whose horizon reached it has read all of them.
 */
export async function nextXact(db: Knex): Promise<number> {
  const result = await db.raw('SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xact');
  return Number((result.rows as Array<{ xact: string | number }>)[0]?.xact);
}

/**
 * The next events after `after`, in (xact, id) order, only from transactions below the horizon
 * (every transaction older than the oldest still running has finished). Ids alone would not do:
 * a transaction that began earlier can commit a smaller id after a larger one was read. Returns
 * the rows and the horizon, so a reader that got a short batch can move up to it.
 */
export async function readAfter(
  db: Knex,
  after: Position,
  limit: number,
): Promise<{ rows: EventRow[]; horizon: number }> {
  const result = await db.raw(
    `WITH h AS (SELECT ${HORIZON} AS horizon)
     SELECT h.horizon, e.id, e.xact, e.topic, e.payload, e.created_at
       FROM h LEFT JOIN LATERAL (
         SELECT id, xact, topic, payload, created_at FROM ${EVENTS}
          WHERE (xact, id) > (?::bigint, ?::bigint) AND xact < h.horizon
          ORDER BY xact, id LIMIT ?
       ) e ON true`,
    [after.xact, after.id, limit],
  );
  const raw = result.rows as Array<RawRow & { horizon: string | number; id: string | number | null }>;
  return { rows: raw.filter((r) => r.id !== null).map(toRow), horizon: Number(raw[0]?.horizon) };
}

/** The events with these ids (those a notification announced), in (xact, id) order. */
export async function readByIds(db: Knex, ids: readonly number[]): Promise<EventRow[]> {
  const result = await db.raw(
    `SELECT id, xact, topic, payload, created_at FROM ${EVENTS} WHERE id = ANY (?::bigint[]) ORDER BY xact, id`,
    [`{${ids.join(',')}}`],
  );
  return (result.rows as RawRow[]).map(toRow);
}

/**
 * Deletes events stamped with transaction ids the server has not reached: they can only come
 * from a copy of another server (a restore), and readers here would otherwise take them for
 * events still to come and stop at them.
 */
export async function dropForeignEvents(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${EVENTS} WHERE xact > pg_current_xact_id()::text::bigint`);
}

/** Deletes events older than the retention, in batches; returns how many. */
export async function purgeEvents(db: Knex, retentionSeconds: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    // Counted in SQL: the embedded driver does not report a DELETE's row count.
    const result = await db.raw(
      `WITH gone AS (
         DELETE FROM ${EVENTS}
          WHERE id = ANY (ARRAY(SELECT id FROM ${EVENTS} WHERE created_at < now() - ?::float8 * interval '1 second' LIMIT ?))
         RETURNING 1
       ) SELECT count(*)::integer AS n FROM gone`,
      [retentionSeconds, batch],
    );
    const n = (result.rows as Array<{ n: number }>)[0]?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}
