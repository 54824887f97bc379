import type { Knex } from 'knex';
import type { AuditRow, ChainHead, Position, SealedRow } from './store.js';

/**
 * The sealer's and the verifier's statements: where each tenant's hash chain stands, which
 * records are final and due to be chained, the seals written, and the chain read back. Kept
 * apart from the records' store (store.ts), which serves writers and GET /audit.
 */

/** Records joined with their seals (null columns while a record is not chained yet). */
export function withSeals(db: Knex | Knex.Transaction): Knex.QueryBuilder {
  return db('audit_records as r')
    .leftJoin('audit_seals as s', (on) =>
      on.on('s.tenant_id', 'r.tenant_id').andOn('s.xact', 'r.xact').andOn('s.record_id', 'r.id'),
    )
    .select('r.*', 's.seq', 's.prev_hash', 's.hash');
}

/** Records of a tenant with their seals in chain order, after `after` and up to `upto`, at most `limit`. */
export async function chainSlice(
  db: Knex,
  tenantId: string,
  after: Position | null,
  upto: Position,
  limit: number,
): Promise<SealedRow[]> {
  const query = withSeals(db)
    .where('r.tenant_id', tenantId)
    .andWhereRaw('(r.xact, r.id) <= (?, ?)', [upto.xact, upto.id]);
  if (after) query.andWhereRaw('(r.xact, r.id) > (?, ?)', [after.xact, after.id]);
  return (await query.orderBy([{ column: 'r.xact' }, { column: 'r.id' }]).limit(limit)) as SealedRow[];
}

/** Rows of a tenant in `table` positioned after the head's last sealed record (all, while nothing is sealed). */
async function countBeyondHead(
  db: Knex,
  table: 'audit_records' | 'audit_seals',
  tenantId: string,
  head: ChainHead | undefined,
): Promise<number> {
  const query = db(table).where('tenant_id', tenantId);
  const idColumn = table === 'audit_records' ? 'id' : 'record_id';
  if (head?.last) query.andWhereRaw(`(xact, ${idColumn}) > (?, ?)`, [head.last.xact, head.last.id]);
  const row = (await query.count({ n: '*' }).first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

/** Committed records of a tenant beyond its head: not chained yet. */
export function countUnsealed(db: Knex, tenantId: string, head: ChainHead | undefined): Promise<number> {
  return countBeyondHead(db, 'audit_records', tenantId, head);
}

interface HeadRow {
  seq: string | number;
  hash: string;
  last_xact: string | number | null;
  last_id: string | null;
}

function toHead(row: HeadRow): ChainHead {
  return {
    seq: Number(row.seq),
    hash: row.hash,
    last: row.last_xact === null || row.last_id === null ? null : { xact: Number(row.last_xact), id: row.last_id },
  };
}

export async function chainHead(db: Knex, tenantId: string): Promise<ChainHead | undefined> {
  const row = (await db('audit_heads').where('tenant_id', tenantId).first('seq', 'hash', 'last_xact', 'last_id')) as
    | HeadRow
    | undefined;
  return row && toHead(row);
}

/** What the sealer chains next: the tenant's head, and the records after it that are final. */
export interface SealBatch {
  head: ChainHead;
  rows: AuditRow[];
  /** Records wait behind the horizon (committed or not, their transaction is not below it yet). */
  heldBack: boolean;
}

/** The lowest position there is: a head with nothing sealed yet sits before every record. */
const BEFORE_ALL = { xact: '-9223372036854775808', id: '00000000-0000-0000-0000-000000000000' };

/**
 * The tenant's head (the genesis head while it has none), the horizon, and the next committed
 * records to chain after the head, oldest first — in one statement, so all three come from one
 * snapshot. The horizon is that snapshot's xmin: every transaction id below it has finished
 * (committed or rolled back), so the records written below it are final and visible. The records
 * are not cut at the horizon in SQL, so that the one read also tells whether any wait behind it.
 * A record beyond the head that has a seal already (the head was moved back) is left for
 * verification to report, not sealed twice.
 */
export async function nextBatch(db: Knex, tenantId: string, genesis: string, limit: number): Promise<SealBatch> {
  const result = await db.raw(
    `WITH head AS (
       SELECT coalesce(h.seq, 0) AS head_seq, coalesce(h.hash, ?) AS head_hash, h.last_xact AS head_last_xact, h.last_id AS head_last_id,
              pg_snapshot_xmin(pg_current_snapshot())::text::bigint + (SELECT xact_offset FROM audit_clock) AS horizon
         FROM (VALUES (1)) AS one LEFT JOIN audit_heads h ON h.tenant_id = ?
     )
     SELECT head.*, r.*
       FROM head LEFT JOIN LATERAL (
         -- A row comparison against the primary key, not an OR on a missing head: the scan starts at the head.
         SELECT r.* FROM audit_records r
          WHERE r.tenant_id = ?
            AND (r.xact, r.id) > (coalesce(head.head_last_xact, ?::bigint), coalesce(head.head_last_id, ?::uuid))
            AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.tenant_id = r.tenant_id AND s.xact = r.xact AND s.record_id = r.id)
          ORDER BY r.xact, r.id
          LIMIT ?
       ) r ON true`,
    [genesis, tenantId, tenantId, BEFORE_ALL.xact, BEFORE_ALL.id, limit],
  );
  type Row = AuditRow & {
    head_seq: string | number;
    head_hash: string;
    head_last_xact: string | number | null;
    head_last_id: string | null;
    horizon: string | number;
  };
  const found = result.rows as Row[];
  const first = found[0];
  if (!first) throw new Error('the seal batch query returned no head');
  const head = toHead({
    seq: first.head_seq,
    hash: first.head_hash,
    last_xact: first.head_last_xact,
    last_id: first.head_last_id,
  });
  const horizon = Number(first.horizon);
  // Without records the lateral join leaves one row of head columns and null record columns.
  const rows: AuditRow[] =
    first.id === null
      ? []
      : found.map(({ head_seq: _s, head_hash: _h, head_last_xact: _x, head_last_id: _i, horizon: _z, ...row }) => row);
  // Chain order, put back here rather than by the statement: a sort there cost more to plan than this does.
  rows.sort((a, b) => Number(a.xact) - Number(b.xact) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const below = rows.findIndex((row) => Number(row.xact) >= horizon);
  return below === -1 ? { head, rows, heldBack: false } : { head, rows: rows.slice(0, below), heldBack: true };
}

export interface SealRow {
  tenant_id: string;
  xact: number;
  record_id: string;
  seq: number;
  prev_hash: string;
  hash: string;
}

/**
 * Appends the seals and moves the head to the last of them, in one statement, if the head is still
 * at `expectedSeq` (a compare-and-set: seq only grows, so an unchanged seq is an unchanged head).
 * A tenant without a head gets one here; with a head at another seq nothing is written and the
 * answer is false: another sealer chained these records meanwhile. The head is written first, so
 * a concurrent sealer of the tenant waits on its row (at most `lockTimeoutMs`, then the statement
 * fails and the tenant is tried again later) and then finds the head moved; one holding it for
 * long must not stall this instance's other tenants or its shutdown. Should the condition ever be
 * missing, the seals' primary key (tenant, xact, record) and the head's forward-only trigger still
 * refuse a second chain over the same records: the statement fails rather than forks the chain.
 */
export async function appendSeals(
  db: Knex,
  tenantId: string,
  expectedSeq: number,
  seals: readonly SealRow[],
  lockTimeoutMs: number,
): Promise<boolean> {
  const last = seals[seals.length - 1];
  if (!last) return true;
  const values = seals.map(() => '(?::bigint, ?::uuid, ?::bigint, ?, ?)').join(', ');
  const result = await db.raw(
    `WITH moved AS (
       -- set_config(..., true) lasts as long as this statement's own transaction; it runs before the insert waits on the head.
       INSERT INTO audit_heads AS h (tenant_id, seq, hash, last_xact, last_id)
       SELECT ?, ?::bigint, ?, ?::bigint, ?::uuid WHERE set_config('lock_timeout', ?, true) IS NOT NULL
       ON CONFLICT (tenant_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, last_xact = excluded.last_xact, last_id = excluded.last_id
        WHERE h.seq = ?::bigint
       RETURNING 1
     ), sealed AS (
       INSERT INTO audit_seals (tenant_id, xact, record_id, seq, prev_hash, hash)
       SELECT ?, v.* FROM (VALUES ${values}) AS v WHERE EXISTS (SELECT 1 FROM moved)
       RETURNING 1
     )
     SELECT count(*)::int AS sealed FROM sealed`,
    [
      tenantId,
      last.seq,
      last.hash,
      last.xact,
      last.record_id,
      `${lockTimeoutMs}ms`,
      expectedSeq,
      tenantId,
      ...seals.flatMap((s) => [s.xact, s.record_id, s.seq, s.prev_hash, s.hash]),
    ] as Knex.RawBinding[],
  );
  return Number((result.rows as Array<{ sealed: number | string }>)[0]?.sealed) === seals.length;
}

/** Seals beyond the head: there are none unless the head was moved back. */
export function countSealsBeyond(db: Knex, tenantId: string, head: ChainHead): Promise<number> {
  return countBeyondHead(db, 'audit_seals', tenantId, head);
}

/**
 * Keeps new records' xact above every sealed one. Transaction ids start again low when a trail
 * is restored from a logical dump into another server; without this, records written there
 * would sort behind the head and never be sealed. Returns the new offset when it had to move, else 0.
 */
export async function advanceClock(db: Knex): Promise<number> {
  const result = await db.raw(`
    UPDATE audit_clock
       SET xact_offset = (SELECT max(last_xact) FROM audit_heads) - pg_current_xact_id()::text::bigint + 1
     WHERE pg_current_xact_id()::text::bigint + xact_offset <= (SELECT max(last_xact) FROM audit_heads)
    RETURNING xact_offset`);
  const row = (result.rows as Array<{ xact_offset: string | number }>)[0];
  return row ? Number(row.xact_offset) : 0;
}

/**
 * Each tenant with the time of its first record beyond the chain head (null when all are
 * sealed). Tenants are found by skipping through the primary key (one index probe per tenant),
 * and each tenant's first unsealed record is one more probe: no query reads every record.
 */
const FIRST_UNSEALED = `
  WITH RECURSIVE tenants AS (
    (SELECT tenant_id FROM audit_records ORDER BY tenant_id LIMIT 1)
    UNION ALL
    SELECT (SELECT r.tenant_id FROM audit_records r WHERE r.tenant_id > t.tenant_id ORDER BY r.tenant_id LIMIT 1)
    FROM tenants t WHERE t.tenant_id IS NOT NULL
  ), first_unsealed AS (
    -- Two probes rather than one with an OR: an OR would turn the position into a filter and
    -- read the tenant's whole sealed trail before the first record beyond it.
    SELECT t.tenant_id, CASE WHEN h.last_xact IS NULL
      THEN (SELECT r.at FROM audit_records r WHERE r.tenant_id = t.tenant_id ORDER BY r.xact, r.id LIMIT 1)
      ELSE (SELECT r.at FROM audit_records r WHERE r.tenant_id = t.tenant_id AND (r.xact, r.id) > (h.last_xact, h.last_id) ORDER BY r.xact, r.id LIMIT 1)
    END AS at
    FROM tenants t LEFT JOIN audit_heads h ON h.tenant_id = t.tenant_id
    WHERE t.tenant_id IS NOT NULL
  )`;

/** Tenants whose trail has records beyond its head. */
export async function tenantsToSeal(db: Knex): Promise<string[]> {
  const result = await db.raw(`${FIRST_UNSEALED} SELECT tenant_id FROM first_unsealed WHERE at IS NOT NULL`);
  return (result.rows as Array<{ tenant_id: string }>).map((r) => r.tenant_id);
}

/** How long ago, in seconds by the database's clock, the oldest record still unsealed was written; 0 when none is. */
export async function unsealedAgeSeconds(db: Knex): Promise<number> {
  const result = await db.raw(
    `${FIRST_UNSEALED} SELECT coalesce(extract(epoch FROM now() - min(at)), 0)::float8 AS age FROM first_unsealed`,
  );
  return Math.max(0, Number((result.rows as Array<{ age: number | string }>)[0]?.age ?? 0));
}
