import type { Knex } from 'knex';
import type { ApiError } from '../errors.js';
import type { Migration } from '../types.js';

/** SQLSTATE `kernel_require` raises: a required part of a combined write had nothing to write. */
const REQUIRED_FAILED = 'KR001';

/**
 * `kernel_require(ok, part)` aborts the statement it is in unless `ok`: how a combined write says
 * "all of this, or none of it" without a transaction around it.
 */
export const requireFunctionMigration: Migration = {
  name: '006_kernel_require',
  async up(db) {
    await db.raw(`
      CREATE FUNCTION kernel_require(ok boolean, part text) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        IF ok IS NOT TRUE THEN
          RAISE EXCEPTION USING ERRCODE = '${REQUIRED_FAILED}', MESSAGE = 'a required part of a combined write wrote nothing', DETAIL = part;
        END IF;
        RETURN true;
      END $$`);
  },
  async down(db) {
    await db.raw('DROP FUNCTION kernel_require(boolean, text)');
  },
};

interface Part {
  name: string;
  sql: string;
  bindings: readonly Knex.RawBinding[];
  /** A SELECT over earlier parts' rows: evaluated only when the final SELECT reads it. */
  read: boolean;
  /** Given the read part's rows once the statement committed. */
  committedRows?: (rows: Array<Record<string, unknown>>) => void;
  /** The call's answer when this part returns no row; nothing is written then. */
  required?: ApiError | (() => ApiError);
  /** When this part returns no row, nothing is written and the call runs again in a transaction (see PartOptions). */
  orTransaction?: boolean;
}

/**
 * A call whose writes were to be combined must run in a transaction after all; nothing of it was
 * written. Its handler throws it (what it found needs reads between its writes), or the statement
 * does when a part added with `orTransaction` wrote nothing. The transaction step then runs the
 * call again in a transaction, where the handler gets no `call.write`.
 */
export class RunInTransaction extends Error {
  constructor(readonly part?: string) {
    super(
      part
        ? `combined write part ${part} wrote nothing: the call runs in a transaction`
        : 'the call runs in a transaction',
    );
  }
}

export interface PartOptions {
  /**
   * When the part returns no row (its RETURNING is empty), nothing commits and the call fails with
   * this error — or the one this function makes then (an error captures a stack trace when made:
   * a cost every call would pay for an outcome few have).
   */
  required?: ApiError | (() => ApiError);
  /** The part is a SELECT over earlier parts (say, a notification per inserted row) rather than a data-modifying statement. */
  read?: boolean;
  /** For a read part: called with its rows once the statement has committed. */
  committedRows?: (rows: Array<Record<string, unknown>>) => void;
  /**
   * A required part the write's other parts depend on (a claim): placed and checked before them.
   * The final SELECT evaluates its checks in order and parts run when first read (the others at the
   * end), so when a guard finds nothing the statement stops before the other parts ran at all.
   */
  guard?: boolean;
  /**
   * Instead of `required`: when the part returns no row, nothing commits and the call runs again
   * in a transaction (RunInTransaction). For a part that checks that what the handler took
   * without reading (a copy it keeps of a row, say) still holds: when it does not, the
   * transactional path reads what is there and answers — or does the work — as it always does.
   */
  orTransaction?: boolean;
}

/** Names parts across every write of the process, so writes can share one statement (group commit). */
let partsNamed = 0;

/**
 * The writes of a call that all commit together, sent as ONE statement: each part is a CTE and
 * PostgreSQL runs a statement atomically, so no BEGIN and COMMIT are needed around it. On the
 * embedded database that is three round trips into the WebAssembly engine fewer per call, and
 * the only connection is held for one statement instead of across every await in between, while
 * other requests' work runs on the same thread. A part is plain SQL with `?` bindings and no WITH
 * of its own; parts read earlier parts' RETURNING rows by the name `add` gives them.
 */
export class CombinedWrite {
  readonly parts: Part[] = [];
  readonly #onCommit: Array<() => void> = [];

  /** Adds a part; returns its name, by which later parts read its RETURNING rows. `label` is a readable prefix ([a-z_]). */
  add(label: string, sql: string, bindings: readonly Knex.RawBinding[], options: PartOptions = {}): string {
    if (!/^[a-z_]+$/.test(label))
      throw new RangeError(`combined write part label "${label}" must be lower-case letters and underscores`);
    const name = `${label}_${(partsNamed = (partsNamed + 1) % Number.MAX_SAFE_INTEGER)}`;
    if (options.guard && !options.required && !options.orTransaction)
      throw new RangeError(`combined write guard "${label}" must be required (or orTransaction)`);
    this.parts[options.guard ? 'unshift' : 'push']({
      name,
      sql,
      bindings,
      read: options.read === true || options.committedRows !== undefined,
      ...(options.required ? { required: options.required } : {}),
      ...(options.orTransaction ? { orTransaction: true } : {}),
      ...(options.committedRows ? { committedRows: options.committedRows } : {}),
    });
    return name;
  }

  /** Runs `callback` once the statement has committed (as a transaction's executionPromise would). */
  onCommit(callback: () => void): void {
    this.#onCommit.push(callback);
  }

  get size(): number {
    return this.parts.length;
  }

  get bindingCount(): number {
    return this.parts.reduce((sum, part) => sum + part.bindings.length, 0);
  }

  /** Tells the parts and the callbacks that the statement committed, `row` being its result. */
  committed(row: Record<string, unknown>): void {
    for (const part of this.parts) part.committedRows?.(parseRows(row[part.name]));
    for (const callback of this.#onCommit) callback();
  }

  /** Sends this write alone; a required part that found nothing fails the call with its error (and nothing was written). */
  commit(db: Knex): Promise<void> {
    return commitTogether(db, [this]);
  }
}

/** What tells a required read from another: its text and its values. */
function readKey(part: Part): string {
  return `${part.sql}\u0000${JSON.stringify(part.bindings)}`;
}

/**
 * The statement of several writes: every part a CTE; the final SELECT evaluates the reads and
 * checks the required parts. A required read that another write of the statement already asks
 * (the same text and values: calls made with one credential, each checking that it holds) is
 * asked once: both writes need its row, and a statement commits all of them or none.
 */
export function statementOf(writes: readonly CombinedWrite[]): { sql: string; bindings: Knex.RawBinding[] } {
  let parts = writes.flatMap((write) => write.parts);
  if (writes.length > 1) {
    const asked = new Set<string>();
    parts = parts.filter((part) => {
      if (!part.read || !part.required || part.committedRows) return true;
      const key = readKey(part);
      if (asked.has(key)) return false;
      asked.add(key);
      return true;
    });
  }
  const bindings: Knex.RawBinding[] = [];
  const ctes = parts.map((part) => {
    bindings.push(...part.bindings);
    return `${part.name} AS (${part.sql})`;
  });
  const checks = parts.flatMap((part) => {
    if (part.required || part.orTransaction)
      return [`kernel_require(EXISTS (SELECT 1 FROM ${part.name}), '${part.name}')`];
    if (part.committedRows) return [`(SELECT coalesce(json_agg(r), '[]') FROM ${part.name} AS r) AS ${part.name}`];
    if (part.read) return [`(SELECT count(*) FROM ${part.name})`];
    return [];
  });
  const select = `SELECT ${checks.length > 0 ? checks.join(', ') : '1'}`;
  return { sql: ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${select}` : select, bindings };
}

/** Commits the writes in one statement: all of them, or none (the error then is the first failing part's, or the database's). */
async function commitTogether(db: Knex, writes: readonly CombinedWrite[]): Promise<void> {
  let row: Record<string, unknown> = {};
  if (writes.some((write) => write.size > 0)) {
    const { sql, bindings } = statementOf(writes);
    try {
      const result = (await db.raw(sql, bindings)) as { rows?: Array<Record<string, unknown>> };
      row = result.rows?.[0] ?? {};
    } catch (err) {
      // The part's name travels in DETAIL (knex puts the statement's text before the message).
      const failed = err as { code?: unknown; detail?: unknown };
      const part =
        failed.code === REQUIRED_FAILED
          ? writes.flatMap((write) => write.parts).find((p) => p.name === failed.detail)
          : undefined;
      if (part?.orTransaction) throw new RunInTransaction(part.name);
      if (part?.required) throw typeof part.required === 'function' ? part.required() : part.required;
      throw err;
    }
  }
  for (const write of writes) write.committed(row);
}

/** At most this many writes, and bindings, in one grouped statement (PostgreSQL takes 65,535 bindings). */
const GROUP_WRITES = 32;
const GROUP_BINDINGS = 20_000;

interface Waiting {
  write: CombinedWrite;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit: while a statement runs, the writes that arrive wait and then go together as the
 * next statement, so a burst of calls costs one statement's overhead (parse, plan, the commit's
 * WAL flush, a round trip) instead of one each. `lanes` statements run at once at most: one on
 * the embedded database (it has one connection), a few on a server, whose pool runs statements
 * side by side — enough that a statement's round trip does not hold the next group back, few
 * enough that each group gathers the calls that came meanwhile. A group whose statement fails
 * (a part refused, a deadlock between two lanes' rows) is sent again one write at a time, so each
 * call gets its own outcome.
 */
class GroupCommitter {
  readonly #waiting: Waiting[] = [];
  /** Lanes sending now, and whether one is about to start. */
  #sending = 0;
  #starting = false;

  constructor(
    private readonly db: Knex,
    private readonly lanes: number,
  ) {}

  commit(write: CombinedWrite): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ write, resolve, reject });
      // Started after the other I/O callbacks of this turn of the event loop: the calls they carry
      // on reach their commits meanwhile (the embedded database runs on this thread, so nothing
      // arrives while a statement runs).
      if (!this.#starting && this.#sending < this.lanes) {
        this.#starting = true;
        setImmediate(() => {
          this.#starting = false;
          void this.#send();
        });
      }
    });
  }

  /** One lane: sends groups until none waits. */
  async #send(): Promise<void> {
    this.#sending += 1;
    try {
      while (this.#waiting.length > 0) {
        const group = this.#take();
        try {
          await commitTogether(
            this.db,
            group.map((w) => w.write),
          );
          for (const waiting of group) waiting.resolve();
        } catch (err) {
          if (group.length === 1) (group[0] as Waiting).reject(err);
          else
            for (const waiting of group)
              await commitTogether(this.db, [waiting.write]).then(waiting.resolve, waiting.reject);
        }
      }
    } finally {
      this.#sending -= 1;
    }
  }

  #take(): Waiting[] {
    const group: Waiting[] = [];
    let bindings = 0;
    while (this.#waiting.length > 0 && group.length < GROUP_WRITES) {
      const next = this.#waiting[0] as Waiting;
      bindings += next.write.bindingCount;
      if (group.length > 0 && bindings > GROUP_BINDINGS) break;
      group.push(this.#waiting.shift() as Waiting);
    }
    return group;
  }
}

const committers = new WeakMap<Knex, GroupCommitter>();

/**
 * Commits a call's combined write, grouped with the writes that arrive meanwhile: at most
 * `lanes` statements at once (see GroupCommitter).
 */
export function commitCombined(db: Knex, write: CombinedWrite, options: { lanes: number }): Promise<void> {
  let committer = committers.get(db);
  if (!committer) committers.set(db, (committer = new GroupCommitter(db, options.lanes)));
  return committer.commit(write);
}

/** json_agg's value as the driver hands it: parsed already (json), or text. */
function parseRows(value: unknown): Array<Record<string, unknown>> {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [];
}
