import type { Knex } from 'knex';

/** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE and ROLLBACK TO, as knex sends them (no bindings). */
const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|rollback|savepoint|release)\b/i;

interface PgliteConnection {
  exec(sql: string): Promise<Array<{ rows: unknown[]; fields: unknown[]; affectedRows?: number }>>;
}

interface QueryObject {
  sql: string;
  bindings?: readonly unknown[];
  response?: unknown;
}

type ClientClass = new (config: Knex.Config) => { _query(connection: unknown, obj: QueryObject): Promise<QueryObject> };

/**
 * knex-pglite's client, with transaction control sent through PGlite's simple-query path. The
 * library sends every statement through the extended protocol (parse, bind, describe, execute,
 * sync), which for a statement without parameters or rows is pure overhead: a BEGIN + COMMIT pair
 * took ~180 µs that way against ~105 µs as simple queries, on a database whose SQL runs on the
 * kernel's own thread, and every write call pays one pair (two with the audit sealer's).
 * Anything with bindings or rows goes the library's way.
 */
export function withSimpleTransactionControl(ClientPgLite: ClientClass): ClientClass {
  return class EmbeddedClient extends ClientPgLite {
    override async _query(connection: unknown, obj: QueryObject): Promise<QueryObject> {
      if ((obj.bindings === undefined || obj.bindings.length === 0) && TRANSACTION_CONTROL.test(obj.sql)) {
        const results = await (connection as PgliteConnection).exec(obj.sql);
        obj.response = results.at(-1) ?? { rows: [], fields: [], affectedRows: 0 };
        return obj;
      }
      return super._query(connection, obj);
    }
  };
}
