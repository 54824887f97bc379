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
  required?: ApiError;
}

export interface PartOptions {
  /** When the part returns no row (its RETURNING is empty), nothing commits and the call fails with this error. */
  required?: ApiError;
  /** The part is a SELECT over earlier parts (say, a notification per inserted row) rather than a data-modifying statement. */
  read?: boolean;
  /** For a read part: called with its rows once the statement has committed. */
  committedRows?: (rows: Array<Record<string, unknown>>) => void;
}

/**
 * The writes of a call that all commit together, sent as ONE statement: each part is a CTE and
 * PostgreSQL runs a statement atomically, so no BEGIN and COMMIT are needed around it. On the
 * embedded database that is three round trips into the WebAssembly engine fewer per call, and
 * the only connection is held for one statement instead of across every await in between, while
 * other requests' work runs on the same thread. A part is plain SQL with `?` bindings and no WITH
 * of its own; parts read earlier parts' RETURNING rows by the name `add` gives them.
 */
export class CombinedWrite {
  readonly #parts: Part[] = [];
  readonly #onCommit: Array<() => void> = [];

  /** Adds a part; returns its name, by which later parts read its RETURNING rows. `label` is a readable prefix ([a-z_]). */
  add(label: string, sql: string, bindings: readonly Knex.RawBinding[], options: PartOptions = {}): string {
    if (!/^[a-z_]+$/.test(label)) throw new RangeError(`combined write part label "${label}" must be lower-case letters and underscores`);
    const name = `${label}_${this.#parts.length}`;
    this.#parts.push({
      name,
      sql,
      bindings,
      read: options.read === true || options.committedRows !== undefined,
      ...(options.required ? { required: options.required } : {}),
      ...(options.committedRows ? { committedRows: options.committedRows } : {}),
    });
    return name;
  }

  /** Runs `callback` once the statement has committed (as a transaction's executionPromise would). */
  onCommit(callback: () => void): void {
    this.#onCommit.push(callback);
  }

  get size(): number {
    return this.#parts.length;
  }

  /** The statement: every part a CTE; the final SELECT evaluates the reads and checks the required parts. */
  statement(): { sql: string; bindings: Knex.RawBinding[] } {
    const bindings: Knex.RawBinding[] = [];
    const ctes = this.#parts.map((part) => {
      bindings.push(...part.bindings);
      return `${part.name} AS (${part.sql})`;
    });
    const checks = this.#parts.flatMap((part, index) => {
      if (part.required) return [`kernel_require(EXISTS (SELECT 1 FROM ${part.name}), '${index}')`];
      if (part.committedRows) return [`(SELECT coalesce(json_agg(r), '[]') FROM ${part.name} AS r) AS ${part.name}`];
      if (part.read) return [`(SELECT count(*) FROM ${part.name})`];
      return [];
    });
    const select = `SELECT ${checks.length > 0 ? checks.join(', ') : '1'}`;
    return { sql: ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${select}` : select, bindings };
  }

  /** Sends the statement; a required part that found nothing fails the call with its error (and nothing was written). */
  async commit(db: Knex): Promise<void> {
    if (this.#parts.length === 0) return;
    const { sql, bindings } = this.statement();
    let result: { rows?: Array<Record<string, unknown>> };
    try {
      result = (await db.raw(sql, bindings)) as typeof result;
    } catch (err) {
      // The part's index travels in DETAIL (knex puts the statement's text before the message).
      const failed = err as { code?: unknown; detail?: unknown };
      const part = failed.code === REQUIRED_FAILED ? this.#parts[Number(failed.detail)] : undefined;
      if (part?.required) throw part.required;
      throw err;
    }
    const row = result.rows?.[0] ?? {};
    for (const part of this.#parts) part.committedRows?.(parseRows(row[part.name]));
    for (const callback of this.#onCommit) callback();
  }
}

/** json_agg's value as the driver hands it: parsed already (json), or text. */
function parseRows(value: unknown): Array<Record<string, unknown>> {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [];
}
