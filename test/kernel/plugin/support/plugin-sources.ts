import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fromRoot } from '../../../../kernel/paths.js';

/**
 * What the layout tests (sql-placement, table-ownership, index-wiring) read: every plugin's
 * hand-written TypeScript, and which plugin's migrations create which table. Text, not a parse:
 * the rules are about where a kind of code lives, which a few patterns over lines tell.
 */

export interface PluginSource {
  /** Path from the repository root, e.g. `plugins/alerts/handlers.ts`. */
  path: string;
  /** The plugin's id (its folder). */
  plugin: string;
  /** Path inside the plugin's folder, e.g. `handlers.ts`, `store/jobs.ts`. */
  inside: string;
  /** The text with comments blanked (line numbers kept), so prose naming a table or a query is no hit. */
  code: string;
}

const root = fromRoot();

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Blanks `//` and `/* *\/` comments, keeping newlines. Strings holding `//` (URLs) are kept whole. */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(['"`])(?:\\.|(?!\1)[^\\\n])*\1|\/\/[^\n]*/g, (match) =>
    match.startsWith('/') ? match.replace(/[^\n]/g, ' ') : match,
  );
}

/**
 * Every plugin's own source: not the console's browser app (no plugin code: it runs in the
 * browser) nor the types generated from manifests.
 */
export const pluginSources: readonly PluginSource[] = files(fromRoot('plugins'))
  .map((file) => relative(root, file))
  .filter((path) => !path.startsWith('plugins/console/app/') && !/^plugins\/[^/]+\/generated\//.test(path))
  .map((path) => {
    const [, plugin, ...rest] = path.split('/');
    return {
      path,
      plugin: plugin as string,
      inside: rest.join('/'),
      code: withoutComments(readFileSync(fromRoot(path), 'utf8')),
    };
  });

/**
 * A line of SQL: knex's raw SQL (`.raw(`, `.whereRaw(`…), a query builder started on a handle
 * with a table (`db('alerts_rules')`, `trx('…')`, `call.db('…')`, `this.db('…')`) or joining one
 * (`.from('…')`, `.join('…')`, `.into('…')`), the schema builder (`.schema.`), or SQL text: a
 * string opening with a statement's verb (`'DELETE FROM …'`, for a combined write or a later
 * raw call) or holding a subquery (`'EXISTS (SELECT …'`). Handles are named db, trx, tx, knex
 * or d throughout the plugins. Upper-case verbs only: prose in messages is not SQL.
 */
const SQL_LINE = [
  /\.(?:raw|[a-z]+Raw)\(/,
  /['"`]\s*(?:SELECT|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|WITH\s+\S+\s+AS|CREATE|ALTER|DROP)\s|\(SELECT\s/,
  /\b(?:db|trx|tx|knex|d)\(\s*['"`][a-z]/,
  /(?<!Buffer|Array)\.(?:from|join|leftJoin|innerJoin|rightJoin|into)\(\s*['"`][a-z][a-z0-9_]*(?:\s+as\s+\w+)?['"`]/,
  /\.schema\./,
];

export function isSqlLine(line: string): boolean {
  return SQL_LINE.some((pattern) => pattern.test(line));
}

/** `path:line: text` of each SQL line of a source. */
export function sqlLines(source: PluginSource): string[] {
  return source.code
    .split('\n')
    .flatMap((line, index) => (isSqlLine(line) ? [`${source.path}:${index + 1}: ${line.trim()}`] : []));
}

/** Which plugin's migrations create each table (and view): `createTable('x')`, `CREATE TABLE x`, `CREATE VIEW x`. */
export const tableOwners: ReadonlyMap<string, string> = new Map(
  pluginSources
    .filter((s) => s.inside.startsWith('migrations/'))
    .flatMap((s) =>
      [
        ...s.code.matchAll(
          /createTable(?:IfNotExists)?\(\s*['"`]([a-z][a-z0-9_]*)['"`]|CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF NOT EXISTS\s+)?([a-z][a-z0-9_]*)|CREATE\s+(?:OR REPLACE\s+)?VIEW\s+([a-z][a-z0-9_]*)/g,
        ),
      ].map((m) => [(m[1] ?? m[2] ?? m[3]) as string, s.plugin] as const),
    ),
);

/**
 * The tables a source's SQL names: a table given to a query or schema builder call
 * (`db('components')`, `.join('streams_partitions as p')`, `.inTable('…')`), and a table after
 * FROM, JOIN, INTO, UPDATE or TABLE in SQL text. Each with its line.
 */
export function tablesNamed(source: PluginSource): Array<{ table: string; line: number }> {
  const found: Array<{ table: string; line: number }> = [];
  const builder =
    /\b(?:db|trx|tx|knex|d|from|join|leftJoin|innerJoin|rightJoin|into|table|inTable|alterTable|dropTable|dropTableIfExists|hasTable|createTable)\(\s*['"`]([a-z][a-z0-9_]*)(?:\s+as\s+\w+)?['"`]/g;
  const text =
    /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:ONLY\s+)?(?:IF (?:NOT )?EXISTS\s+)?(?:\?\?\.)?"?([a-z][a-z0-9_]*)\b/g;
  source.code.split('\n').forEach((line, index) => {
    for (const pattern of [builder, text])
      for (const m of line.matchAll(pattern)) found.push({ table: m[1] as string, line: index + 1 });
  });
  return found;
}
