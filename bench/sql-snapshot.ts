import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { ratio } from './harness.js';
import type { Scenario } from './scenarios.js';

/**
 * What a SQL console on the embedded database would cost if each query ran on a consistent copy
 * in a worker thread (the only way to cancel it at a deadline and to keep it off the server's
 * thread): the copy (PGlite's dumpDataDir, then a new instance from it) against the query it
 * would serve. The dump runs on the thread that owns the database — the server's — so the event
 * loop's longest stall during it is reported too. docs/guides/sql-console.md quotes these figures.
 */

const SIZES = (process.env.BENCH_SQL_ROWS ?? '20000,100000').split(',').map(Number);
const QUERY = "SELECT stream, count(*), avg(size) FROM messages WHERE body::text LIKE '%7%' GROUP BY stream";

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

/** A database of `rows` messages of ~200 bytes, across a few streams, as the streams plugin stores them. */
async function seeded(rows: number): Promise<PGlite> {
  const db = new PGlite();
  await db.exec(`CREATE TABLE messages (id text PRIMARY KEY, stream text, "offset" bigint, body bytea, size int, published_at timestamptz);
    INSERT INTO messages SELECT 'm' || i, 's' || (i % 8), i, convert_to(repeat(md5(i::text), 6), 'UTF8'), 192, now()
      FROM generate_series(1, ${rows}) AS i;`);
  await db.exec('VACUUM ANALYZE messages');
  return db;
}

async function measure(rows: number): Promise<Record<string, number>> {
  const db = await seeded(rows);
  try {
    await db.query(QUERY);
    const query = Math.min(...(await Promise.all([0, 1, 2].map(() => timed(() => db.query(QUERY))))).map((t) => t.ms));
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const dump = await timed(() => db.dumpDataDir('none'));
    // The histogram records a stall when the loop gets to its timer, after the stall: let it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    stalls.disable();
    const load = await timed(async () => {
      const copy = new PGlite({ loadDataDir: dump.value });
      await copy.waitReady;
      return copy;
    });
    const onCopy = await timed(() => load.value.query(QUERY));
    await load.value.close();
    const copyMs = dump.ms + load.ms;
    return {
      rows,
      dump_mb: Math.round((dump.value.size / 1e6) * 10) / 10,
      query_ms: Math.round(query * 10) / 10,
      dump_ms: Math.round(dump.ms),
      load_ms: Math.round(load.ms),
      query_on_copy_ms: Math.round(onCopy.ms * 10) / 10,
      server_thread_stall_ms: Math.round(stalls.max / 1e6),
      copy_per_query: ratio(copyMs, query),
    };
  } finally {
    await db.close();
  }
}

export const sqlSnapshotScenario: Scenario = {
  name: 'sql_snapshot',
  title:
    'SQL console on the embedded database: a consistent copy per query (dump + load into a worker’s instance) vs the query itself',
  async run() {
    const figures: Record<string, unknown> = {};
    for (const rows of SIZES) figures[`rows_${rows}`] = await measure(rows);
    return figures;
  },
};
