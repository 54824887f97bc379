import type { Knex } from 'knex';
import { deleteExpiredRows } from '../db/expired-rows.js';
import type { Migration, Reply } from '../types.js';

export const TABLE = 'kernel_idempotency_keys';

/** Keys are scoped to tenant + principal + operation (tenant first, like every table). */
export interface KeyScope {
  tenantId: string;
  subjectId: string;
  operation: string;
  key: string;
}

export interface StoredResponse {
  fingerprint: string;
  reply: Reply;
  expiresAt: Date;
}

export const idempotencyMigration: Migration = {
  name: '002_kernel_idempotency_keys',
  async up(db) {
    await db.schema.createTable(TABLE, (t) => {
      t.text('tenant_id').notNullable();
      t.text('subject_id').notNullable();
      t.text('operation').notNullable();
      t.text('key').notNullable();
      t.text('fingerprint').notNullable();
      t.integer('status').notNullable();
      t.jsonb('headers').notNullable().defaultTo('{}');
      /** The response body exactly as it was serialised (JSON text), or null when there was none. */
      t.text('body');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'subject_id', 'operation', 'key']);
    });
  },
  async down(db) {
    await db.schema.dropTable(TABLE);
  },
};

interface ClaimRow {
  locked: boolean;
  fingerprint: string | null;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  expires_at: Date | string | null;
}

/** The two halves of the key's advisory lock: the same in a transaction and in a combined write. */
function lockKeys(scope: KeyScope): [string, string] {
  return [`${scope.tenantId}\u001f${scope.operation}`, `${scope.subjectId}\u001f${scope.key}`];
}

function storedOf(row: Omit<ClaimRow, 'locked'>): StoredResponse | undefined {
  if (row.fingerprint === null || row.status === null || row.expires_at === null) return undefined;
  const reply: Reply = { status: row.status };
  if (row.body !== null) reply.body = JSON.parse(row.body) as unknown;
  if (row.headers && Object.keys(row.headers).length > 0) reply.headers = row.headers;
  return { fingerprint: row.fingerprint, reply, expiresAt: new Date(row.expires_at) };
}

/**
 * Takes the key's lock for this transaction without waiting and reads what is stored for it,
 * in one round trip. The lock is a transaction-level advisory lock: it is released by commit,
 * rollback, or the database when the process dies, so a crash can never leave a key stuck.
 */
export async function claimKey(
  trx: Knex.Transaction,
  scope: KeyScope,
): Promise<{ locked: boolean; stored?: StoredResponse }> {
  const result = await trx.raw(
    `SELECT pg_try_advisory_xact_lock(hashtext(?), hashtext(?)) AS locked, k.fingerprint, k.status, k.headers, k.body, k.expires_at
       FROM (SELECT 1) AS one
       LEFT JOIN ${TABLE} AS k ON k.tenant_id = ? AND k.subject_id = ? AND k.operation = ? AND k.key = ?`,
    [...lockKeys(scope), scope.tenantId, scope.subjectId, scope.operation, scope.key],
  );
  const row = (result.rows as ClaimRow[])[0] as ClaimRow;
  if (!row.locked) return { locked: false };
  const stored = storedOf(row);
  return stored ? { locked: true, stored } : { locked: true };
}

/** What is stored for the key now, if anything (after a combined write found its key taken). */
export async function storedResponse(db: Knex, scope: KeyScope): Promise<StoredResponse | undefined> {
  const rows = (await db(TABLE)
    .select('fingerprint', 'status', 'headers', 'body', 'expires_at')
    .where({ tenant_id: scope.tenantId, subject_id: scope.subjectId, operation: scope.operation, key: scope.key })
    .limit(1)) as Array<Omit<ClaimRow, 'locked'>>;
  return rows[0] && storedOf(rows[0]);
}

function responseBindings(scope: KeyScope, fingerprint: string, reply: Reply, now: Date, expiresAt: Date) {
  return [
    scope.tenantId,
    scope.subjectId,
    scope.operation,
    scope.key,
    fingerprint,
    reply.status,
    JSON.stringify(reply.headers ?? {}),
    reply.body === undefined ? null : JSON.stringify(reply.body),
    now,
    expiresAt,
  ];
}

/** An expired row of the key is replaced; a live one is not (the INSERT then returns no row). */
const REPLACE_EXPIRED = `ON CONFLICT (tenant_id, subject_id, operation, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE ${TABLE}.expires_at <= EXCLUDED.created_at`;

/**
 * The claim of a key as a part of a combined write, its response stored at once: under the
 * key's lock taken without waiting (as claimKey's), it inserts the response unless a live one is
 * stored. It returns no row when the lock is held (a call with the key in flight) or the key is
 * taken: the write's other parts must then not run (a guard, see CombinedWrite).
 */
export function claimInsert(
  scope: KeyScope,
  fingerprint: string,
  reply: Reply,
  now: Date,
  expiresAt: Date,
): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: `INSERT INTO ${TABLE} (tenant_id, subject_id, operation, key, fingerprint, status, headers, body, created_at, expires_at)
     SELECT ?::text, ?::text, ?::text, ?::text, ?::text, ?::integer, ?::jsonb, ?::text, ?::timestamptz, ?::timestamptz
      WHERE pg_try_advisory_xact_lock(hashtext(?), hashtext(?))
     ${REPLACE_EXPIRED}
     RETURNING 1 AS claimed`,
    bindings: [...responseBindings(scope, fingerprint, reply, now, expiresAt), ...lockKeys(scope)],
  };
}

/**
 * Stores the response in the effect's transaction. An expired row of the same key is replaced;
 * a live one (committed by another instance in the instant between our read and our lock) is
 * not, and `false` tells the caller to roll its effect back.
 */
export async function saveResponse(
  trx: Knex.Transaction,
  scope: KeyScope,
  fingerprint: string,
  reply: Reply,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  const result = await trx.raw(
    `INSERT INTO ${TABLE} (tenant_id, subject_id, operation, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
     ${REPLACE_EXPIRED}
     RETURNING 1 AS saved`,
    responseBindings(scope, fingerprint, reply, now, expiresAt),
  );
  return (result.rows as unknown[]).length === 1;
}

const EXPIRY_INDEX = `${TABLE}_expires_at_index`;

/**
 * Lets the purge find expired keys without reading the whole table. Built concurrently, so an
 * upgrade does not stop idempotent writes while a full day of keys is indexed; an earlier
 * build that was interrupted left an invalid index behind, which goes first.
 */
export const keyExpiryIndexMigration: Migration = {
  name: '003_kernel_idempotency_keys_expiry',
  transaction: false,
  async up(db) {
    await db.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${EXPIRY_INDEX}`);
    await db.raw(`CREATE INDEX CONCURRENTLY ${EXPIRY_INDEX} ON ${TABLE} (expires_at)`);
  },
  async upInTransaction(db) {
    await db.raw(`CREATE INDEX ${EXPIRY_INDEX} ON ${TABLE} (expires_at)`);
  },
  async down(db) {
    await db.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${EXPIRY_INDEX}`);
  },
};

/** Rows one purge statement deletes at most. */
export const PURGE_BATCH = 5000;

/**
 * Deletes keys past their retention; returns how many. In batches, each statement its own short
 * transaction: one long DELETE would hold locks and the oldest open snapshot back. A batch that
 * comes up short ends the purge; rows another instance was deleting at that moment are left
 * to the next round.
 */
export async function purgeExpiredKeys(db: Knex, now: Date, batch: number = PURGE_BATCH): Promise<number> {
  return deleteExpiredRows(db, TABLE, now, batch);
}
