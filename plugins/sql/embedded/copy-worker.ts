import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { CURSOR, jsonValue, statementError, TYPE_NAMES } from '../statement.js';
import { quoteIdent } from '../views.js';
import type { CopyQuery, CopyAnswer } from './protocol.js';

/**
 * One SQL console query on a copy of the embedded database, in a thread of its own: the host
 * kills the thread at the deadline (WebAssembly cannot be interrupted otherwise), and nothing the
 * query does reaches the server's database. Before the query, the copy is cut down to the
 * tenant: other tenants' rows are deleted from the tables the console exposes, and the query runs
 * as a role that holds SELECT on those tables and views only — not on the kernel's other tables
 * (users, sessions, secrets), not on the data files (no superuser, no pg_read_server_files), and
 * with `set_config` revoked, so no function call can take the session back to the superuser.
 */

const job = workerData as CopyQuery;
const READER = 'sql_console_reader';

interface PgError extends Error {
  code?: string;
  position?: string;
}

async function prepare(db: PGlite): Promise<void> {
  const schema = quoteIdent(job.schema);
  // Triggers that guard the server's tables (audit records are append-only) have no say in a copy.
  await db.exec(`SET search_path TO ${schema}; SET session_replication_role = replica;`);
  for (const table of job.tables)
    await db.query(
      `DELETE FROM ${schema}.${quoteIdent(table.table)} WHERE ${quoteIdent(table.tenant_column)} IS DISTINCT FROM $1`,
      [job.tenantId],
    );
  await db.exec(`SET session_replication_role = origin; CREATE ROLE ${READER} NOLOGIN NOSUPERUSER NOINHERIT;
    REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC;
    GRANT USAGE ON SCHEMA ${schema} TO ${READER};
    REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC;`);
  for (const sql of job.setup) await db.exec(sql);
  for (const name of [...job.tables.map((t) => t.table), ...job.views])
    await db.exec(`GRANT SELECT ON ${schema}.${quoteIdent(name)} TO ${READER}`);
}

async function run(): Promise<CopyAnswer> {
  const db = new PGlite({
    loadDataDir: new Blob([job.archive]),
    ...(job.wasmModule ? { pgliteWasmModule: job.wasmModule } : {}),
  });
  await db.waitReady;
  try {
    await prepare(db);
  } catch (err) {
    return { prepareFailed: (err as Error).message };
  }
  parentPort?.postMessage({ ready: true } satisfies CopyAnswer);
  const started = performance.now();
  await db.exec(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL ROLE ${READER};`);
  try {
    await db.query(CURSOR + job.sql, job.params);
  } catch (err) {
    return { ok: false, error: statementError(err as PgError) };
  }
  const fetched = await db.query<unknown[]>(`FETCH FORWARD ${job.limit + 1} FROM sql_console_cursor`, [], {
    rowMode: 'array',
  });
  const elapsed = performance.now() - started;
  await db.exec('ROLLBACK');
  const oids = [...new Set(fetched.fields.map((f) => f.dataTypeID))];
  const named = await db.query<{ oid: number; name: string }>(TYPE_NAMES, [oids]);
  const typeName = new Map(named.rows.map((row) => [row.oid, row.name]));
  const truncated = fetched.rows.length > job.limit;
  return {
    ok: true,
    columns: fetched.fields.map((f) => ({
      name: f.name,
      type: typeName.get(f.dataTypeID) ?? `oid ${f.dataTypeID}`,
      type_oid: f.dataTypeID,
    })),
    rows: (truncated ? fetched.rows.slice(0, job.limit) : fetched.rows).map((row) => row.map(jsonValue)),
    truncated,
    query_ms: elapsed,
  };
}

run().then(
  (answer) => parentPort?.postMessage(answer),
  (err: PgError) => parentPort?.postMessage({ ok: false, error: statementError(err) } satisfies CopyAnswer),
);
