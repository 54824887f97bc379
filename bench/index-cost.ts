/**
 * Scratch measurement (not a scenario): what one publish's index write costs on the nats
 * backend, for the current per-message table with each index dropped in turn, and for
 * alternatives. Run: node dist/bench/index-cost.js (DATABASE_URL for PostgreSQL).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { connectDatabase } from '../kernel/db/connect.js';

const BATCHES = Number(process.env.BATCHES ?? 1500);
const WARM = 100;
const N = 100;

const TABLE = `CREATE TABLE mi (tenant_id text NOT NULL, stream_uid text NOT NULL, partition integer NOT NULL, "offset" bigint NOT NULL, id text NOT NULL, stream text NOT NULL, published_at timestamptz(3) NOT NULL, replay_of text)`;
const PK = 'ALTER TABLE mi ADD PRIMARY KEY (tenant_id, stream_uid, partition, "offset")';
const UQ = 'ALTER TABLE mi ADD UNIQUE (tenant_id, id)';
const TIME = 'CREATE INDEX mi_time ON mi (tenant_id, stream_uid, published_at) WITH (deduplicate_items = off)';
const REPLAY = 'CREATE INDEX mi_replay ON mi (tenant_id, replay_of) WHERE replay_of IS NOT NULL';
const INSERT = `INSERT INTO mi (tenant_id, stream_uid, partition, "offset", id, stream, published_at, replay_of)
  SELECT ?, ?, m.partition, m."offset", m.id, ?, ?, m.replay_of FROM unnest(?::int[], ?::bigint[], ?::text[], ?::text[]) AS m(partition, "offset", id, replay_of)
   WHERE EXISTS (SELECT 1 FROM ss s WHERE s.tenant_id = ? AND s.uid = ?)`;

const BATCH_TABLE = `CREATE TABLE mb (tenant_id text NOT NULL, stream_uid text NOT NULL, first_id text NOT NULL, last_id text NOT NULL, stream text NOT NULL, published_at timestamptz(3) NOT NULL,
  partitions int[] NOT NULL, offsets bigint[] NOT NULL, ids text[], replay_of text[], PRIMARY KEY (tenant_id, first_id))`;
const BATCH_TIME = 'CREATE INDEX mb_time ON mb (tenant_id, stream_uid, published_at)';
/** As migration 007 makes it, and as nats-backend.ts writes it. */
const RUNS_TABLE = `CREATE TABLE mr (tenant_id text NOT NULL, last_id text NOT NULL, first_id text NOT NULL, stream_uid text NOT NULL, stream text NOT NULL, published_at timestamptz(3) NOT NULL,
  first_offset bigint NOT NULL, last_offset bigint NOT NULL, partitions integer[] NOT NULL, offsets bigint[] NOT NULL, PRIMARY KEY (tenant_id, last_id))`;
const RUNS_INDEXES = [
  'CREATE INDEX mr_offset ON mr (tenant_id, stream_uid, last_offset) INCLUDE (first_offset)',
  'CREATE INDEX mr_time ON mr (tenant_id, stream_uid, published_at) WITH (deduplicate_items = off)',
];
const RUNS_INSERT = `INSERT INTO mr (tenant_id, last_id, first_id, stream_uid, stream, published_at, first_offset, last_offset, partitions, offsets)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?::integer[], ?::bigint[] WHERE EXISTS (SELECT 1 FROM ss s WHERE s.tenant_id = ? AND s.uid = ?)`;
const BATCH_OFFSET = 'CREATE INDEX mb_offset ON mb (tenant_id, stream_uid, (offsets[1]))';
const BATCH_INSERT = `INSERT INTO mb (tenant_id, stream_uid, first_id, last_id, stream, published_at, partitions, offsets, ids, replay_of)
  SELECT ?, ?, ?, ?, ?, ?, ?::int[], ?::bigint[], ?::text[], ?::text[] WHERE EXISTS (SELECT 1 FROM ss s WHERE s.tenant_id = ? AND s.uid = ?)`;

let ms = Date.now();
function batchIds(contiguous: boolean): string[] {
  ms += 1;
  const prefix = `msg_${ms.toString(36).padStart(9, '0')}00${randomBytes(7).toString('hex').slice(0, 13)}`;
  return Array.from({ length: N }, (_, i) =>
    contiguous
      ? prefix + i.toString(16).padStart(3, '0')
      : `msg_${ms.toString(36).padStart(9, '0')}${i.toString(36).padStart(2, '0')}${randomBytes(8).toString('hex')}`,
  );
}

interface Variant {
  name: string;
  setup: string[];
  write(db: Knex, offset: number): Promise<void>;
}

const perMessage = (name: string, setup: string[]): Variant => ({
  name,
  setup: [TABLE, ...setup],
  async write(db, offset) {
    const ids = batchIds(false);
    await db.transaction((trx) =>
      trx.raw(INSERT, [
        't',
        'u',
        'bench',
        new Date(),
        Array(N).fill(0),
        ids.map((_, i) => offset + i),
        ids,
        Array(N).fill(null),
        't',
        'u',
      ] as Knex.RawBinding[]),
    );
  },
});

const perBatch = (name: string, setup: string[], withIds: boolean): Variant => ({
  name,
  setup: [BATCH_TABLE, ...setup],
  async write(db, offset) {
    const ids = batchIds(true);
    await db.transaction((trx) =>
      trx.raw(BATCH_INSERT, [
        't',
        'u',
        ids[0],
        ids[N - 1],
        'bench',
        new Date(),
        Array(N).fill(0),
        ids.map((_, i) => offset + i),
        withIds ? ids : null,
        null,
        't',
        'u',
      ] as Knex.RawBinding[]),
    );
  },
});

const variants: Variant[] = [
  perMessage('per-message: PK+UNIQUE(id)+time+replay (today)', [PK, UQ, TIME, REPLAY]),
  perMessage('per-message: no replay_of partial', [PK, UQ, TIME]),
  perMessage('per-message: no time index', [PK, UQ, REPLAY]),
  perMessage('per-message: no UNIQUE(id)', [PK, TIME, REPLAY]),
  perMessage('per-message: no PK', [UQ, TIME, REPLAY]),
  perMessage('per-message: PK only', [PK]),
  perMessage('per-message: UNIQUE(id) only', [UQ]),
  perMessage('per-message: no index at all', []),
  perBatch('per-batch row: PK(first_id)+time+offset, ids[] kept', [BATCH_TIME, BATCH_OFFSET], true),
  perBatch('per-batch row: PK(first_id)+time+offset, ids derived', [BATCH_TIME, BATCH_OFFSET], false),
  {
    name: 'run row as migration 007 (the change)',
    setup: [RUNS_TABLE, ...RUNS_INDEXES],
    async write(db, offset) {
      const ids = batchIds(true);
      const offsets = ids.map((_, i) => offset + i);
      await db.transaction((trx) =>
        trx.raw(RUNS_INSERT, [
          't',
          ids[N - 1],
          ids[0],
          'u',
          'bench',
          new Date(),
          offsets[0],
          offsets[N - 1],
          Array(N).fill(0),
          offsets,
          't',
          'u',
        ] as Knex.RawBinding[]),
      );
    },
  },
  {
    name: 'run row with migration 008 (index by first_offset)',
    setup: [RUNS_TABLE, ...RUNS_INDEXES, 'CREATE INDEX mr_first_offset ON mr (tenant_id, stream_uid, first_offset)'],
    async write(db, offset) {
      const ids = batchIds(true);
      const offsets = ids.map((_, i) => offset + i);
      await db.transaction((trx) =>
        trx.raw(RUNS_INSERT, [
          't',
          ids[N - 1],
          ids[0],
          'u',
          'bench',
          new Date(),
          offsets[0],
          offsets[N - 1],
          Array(N).fill(0),
          offsets,
          't',
          'u',
        ] as Knex.RawBinding[]),
      );
    },
  },
  {
    name: 'empty transaction (floor)',
    setup: [],
    async write(db) {
      await db.transaction((trx) => trx.raw('SELECT 1 FROM ss WHERE tenant_id = ? AND uid = ?', ['t', 'u']));
    },
  },
];

const database = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL, schema: `idx_${randomBytes(3).toString('hex')}` }
  : { data_dir: mkdtempSync(join(tmpdir(), 'idx-db-')) };
const db = await connectDatabase({ pool_max: 2, ready_timeout_ms: 5000, ...database } as never);
const only = process.argv[2];
try {
  for (const v of variants) {
    if (only && !v.name.includes(only)) continue;
    await db.knex.raw('DROP TABLE IF EXISTS mi, mb, mr, ss');
    await db.knex.raw('CREATE TABLE ss (tenant_id text, uid text, PRIMARY KEY (tenant_id, uid))');
    await db.knex.raw("INSERT INTO ss VALUES ('t', 'u')");
    for (const s of v.setup) await db.knex.raw(s);
    let offset = 1;
    for (let i = 0; i < WARM; i++, offset += N) await v.write(db.knex, offset);
    const times: number[] = [];
    for (let i = 0; i < BATCHES; i++, offset += N) {
      const t = process.hrtime.bigint();
      await v.write(db.knex, offset);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    process.stdout.write(
      `${v.name.padEnd(66)} mean ${mean.toFixed(3)} ms  median ${times[times.length >> 1]!.toFixed(3)} ms  p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(3)} ms\n`,
    );
  }
} finally {
  await db.knex.raw('DROP TABLE IF EXISTS mi, mb, mr, ss');
  if (process.env.DATABASE_URL)
    await db.knex.raw(`DROP SCHEMA IF EXISTS ${(database as { schema: string }).schema} CASCADE`);
  await db.close();
}
