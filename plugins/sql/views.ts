import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { SqlTable } from './contract.js';

/**
 * Stored bytes as a value a tenant can read: `sql_console_json` for a JSON body, `sql_console_text`
 * for UTF-8 text. Each answers NULL for bytes that are not what it reads (invalid UTF-8, a NUL, a
 * body that is not JSON), so one odd message never fails a whole query.
 */
const FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION $schema.sql_console_text(bytes bytea) RETURNS text
     LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
     BEGIN RETURN convert_from(bytes, 'UTF8'); EXCEPTION WHEN others THEN RETURN NULL; END $$`,
  `CREATE OR REPLACE FUNCTION $schema.sql_console_json(bytes bytea) RETURNS jsonb
     LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
     BEGIN RETURN convert_from(bytes, 'UTF8')::jsonb; EXCEPTION WHEN others THEN RETURN NULL; END $$`,
];

/** An identifier as SQL writes it. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The statements that create the byte-reading functions in `schema`. */
export function functionStatements(schema: string): string[] {
  return FUNCTIONS.map((sql) => sql.replace('$schema', quoteIdent(schema)));
}

/** The statement that creates one readable view (with the querying role's rights: see ensureViews). */
export function viewStatement(schema: string, table: string, view: NonNullable<SqlTable['view']>): string {
  return `CREATE VIEW ${quoteIdent(schema)}.${quoteIdent(view.name)} WITH (security_invoker = true, security_barrier = true) AS SELECT ${view.select} FROM ${quoteIdent(schema)}.${quoteIdent(table)} t`;
}

/** Views run with the querying role's rights (and so under its tenant policy) from PostgreSQL 15 on. */
const SECURITY_INVOKER_FROM = 150000;

/** Marks a view with the definition it was made from, so a later start leaves an unchanged view alone. */
function stamp(table: string, select: string): string {
  return `sql-console ${createHash('sha256').update(`${table}\0${select}`).digest('hex').slice(0, 16)}`;
}

/**
 * Creates the readable views (`streams`, `messages`, `runs`…) over the tables that declare one,
 * inside the caller's transaction, and grants them to the console's group role. A view is only
 * ever created with `security_invoker`: without it a view reads as its owner (the kernel, which
 * no policy binds) and would show every tenant's rows, so on a server older than PostgreSQL 15
 * no view is made and tenants read the tables themselves.
 */
export async function ensureViews(
  trx: Knex.Transaction,
  schema: string,
  group: string,
  tables: ReadonlyArray<SqlTable & { view: NonNullable<SqlTable['view']> }>,
): Promise<string[]> {
  const version = await trx.raw("SELECT current_setting('server_version_num')::int AS v");
  if ((version.rows[0] as { v: number }).v < SECURITY_INVOKER_FROM || tables.length === 0) return [];
  // Names in the plugins' view definitions (tables, the functions above) resolve in the kernel's schema.
  await trx.raw('SET LOCAL search_path TO ??', [schema]);
  for (const sql of functionStatements(schema)) await trx.raw(sql);
  await trx.raw('GRANT EXECUTE ON FUNCTION ??.sql_console_text(bytea), ??.sql_console_json(bytea) TO ??', [
    schema,
    schema,
    group,
  ]);
  const made: string[] = [];
  for (const { table, view } of tables) {
    const wanted = stamp(table, view.select);
    const found = await trx.raw(
      `SELECT obj_description(c.oid, 'pg_class') AS stamp, has_table_privilege(?, c.oid, 'SELECT') AS granted
         FROM pg_class c WHERE c.oid = to_regclass(?) AND c.relkind = 'v'`,
      [group, `"${schema}"."${view.name}"`],
    );
    const current = found.rows[0] as { stamp: string | null; granted: boolean } | undefined;
    made.push(view.name);
    if (current?.stamp === wanted && current.granted) continue;
    if (current?.stamp !== wanted) {
      await trx.raw('DROP VIEW IF EXISTS ??.??', [schema, view.name]);
      await trx.raw(viewStatement(schema, table, view));
      await trx.raw(`COMMENT ON VIEW ??.?? IS '${wanted}'`, [schema, view.name]);
    }
    await trx.raw('GRANT SELECT ON ??.?? TO ??', [schema, view.name, group]);
  }
  return made;
}
