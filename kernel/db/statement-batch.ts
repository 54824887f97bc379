import type { Knex } from 'knex';

/** What knex hands its driver for one statement (knex/lib/dialects/postgres `_query`). */
interface QueryObject {
  sql: string;
  bindings?: readonly unknown[];
  output?: unknown;
  response?: unknown;
}

type DriverQuery = (connection: unknown, obj: QueryObject) => Promise<QueryObject>;

/** Statements whose answer carries nothing a caller reads: they may wait and go with the next ones. */
const RESULTLESS = /^\s*(create|alter|drop|comment)\b/i;

function deferrable(obj: QueryObject): boolean {
  return (obj.bindings?.length ?? 0) === 0 && obj.output === undefined && RESULTLESS.test(obj.sql);
}

export interface StatementBatch {
  /** Sends what waits, as one query; a failure is the error of the statement that failed. */
  flush(): Promise<void>;
  /** Forgets what waits (the transaction is being rolled back). */
  discard(): void;
}

/**
 * Sends a transaction's result-less statements (CREATE, ALTER, DROP, COMMENT without bindings)
 * in fewer round trips: each such statement is answered at once with an empty result and kept;
 * the kept ones go to the server as one multi-statement query before the next statement that
 * answers something (a SELECT, an INSERT, COMMIT) or at `flush()`. Inside the transaction the
 * server runs them in the same order with the same effect; only a failure surfaces later, at
 * that query, and the transaction fails as a whole either way. For node-postgres connections
 * only: the simple query protocol carries several statements, PGlite's `query` does not.
 */
export function batchStatements(trx: Knex.Transaction): StatementBatch {
  // The transaction's own client (knex makes one per transaction): its `_query` is the driver
  // call of this transaction's statements alone.
  const client = trx.client as { _query: DriverQuery; acquireConnection(): Promise<unknown> };
  const send = client._query;
  let kept: string[] = [];
  const sendKept = async (connection: unknown): Promise<void> => {
    if (kept.length === 0) return;
    const sql = kept.join(';\n');
    kept = [];
    await send.call(client, connection, { sql, bindings: [] });
  };
  client._query = async (connection, obj) => {
    if (deferrable(obj)) {
      kept.push(obj.sql);
      obj.response = { command: obj.sql.trim().split(/\s/, 1)[0]?.toUpperCase(), rowCount: null, rows: [], fields: [] };
      return obj;
    }
    await sendKept(connection);
    return send.call(client, connection, obj);
  };
  return {
    async flush() {
      await sendKept(await client.acquireConnection());
    },
    discard() {
      kept = [];
    },
  };
}
