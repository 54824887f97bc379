import { performance } from 'node:perf_hooks';
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
 * How long the embedded database's statements may follow one another before the event loop gets
 * a turn. PGlite runs each statement on this thread and answers through promises alone, so while
 * statements wait for the connection (a source's batch, a workflow's read, its commit, a lease's
 * renewal) they run back to back in one turn of the loop, however many there are: meanwhile no
 * socket is read, no timer fires, `/health` waits. After this long a statement first lets the
 * loop turn; a statement itself is never cut.
 */
const SLICE_MS = 10;

/** When the statements running back to back since the loop last turned began (undefined: none since). */
let sliceStartedAt: number | undefined;

function endSlice(): void {
  sliceStartedAt = undefined;
}

/** Resolves at once, or — once this turn's statements have run for SLICE_MS — after the event loop turned. */
function turnIfDue(): Promise<void> | undefined {
  if (sliceStartedAt === undefined) {
    sliceStartedAt = performance.now();
    setImmediate(endSlice);
    return undefined;
  }
  if (performance.now() - sliceStartedAt < SLICE_MS) return undefined;
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // A yield from the poll phase resumes in the same turn's check phase: the slice starts anew,
    // so the next yield, from the check phase, reaches the next turn's poll (sockets are read).
    if (sliceStartedAt === undefined) {
      sliceStartedAt = performance.now();
      setImmediate(endSlice);
    }
  });
}

/**
 * knex-pglite's client, with transaction control sent through PGlite's simple-query path. The
 * library sends every statement through the extended protocol (parse, bind, describe, execute,
 * sync), which for a statement without parameters or rows is pure overhead: a BEGIN + COMMIT pair
 * took ~180 µs that way against ~105 µs as simple queries, on a database whose SQL runs on the
 * kernel's own thread, and every write call pays one pair (two with the audit sealer's).
 * Anything with bindings or rows goes the library's way. Every statement lets the event loop
 * turn first when the statements before it ran for a while (turnIfDue).
 */
export function withSimpleTransactionControl(ClientPgLite: ClientClass): ClientClass {
  return class EmbeddedClient extends ClientPgLite {
    override async _query(connection: unknown, obj: QueryObject): Promise<QueryObject> {
      const turn = turnIfDue();
      if (turn) await turn;
      if ((obj.bindings === undefined || obj.bindings.length === 0) && TRANSACTION_CONTROL.test(obj.sql)) {
        const results = await (connection as PgliteConnection).exec(obj.sql);
        obj.response = results.at(-1) ?? { rows: [], fields: [], affectedRows: 0 };
        return obj;
      }
      return super._query(connection, obj);
    }
  };
}
