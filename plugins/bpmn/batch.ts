import type { Knex } from 'knex';
import type { CombinedWrite } from '../../kernel/plugin/api.js';

/** One write as SQL text with `?` placeholders and its bindings, built without a query builder. */
export interface Write {
  sql: string;
  bindings: unknown[];
}

/** `(?, ?, …), (?, …)`: `rows` tuples of `columns` placeholders, for a multi-row VALUES. */
export function valuesList(rows: number, columns: number): string {
  const tuple = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(tuple).join(', ');
}

/** The same with each placeholder cast to its column's type: a VALUES list inside a SELECT is not typed by the target columns. */
export function typedValuesList(rows: number, types: readonly string[]): string {
  const tuple = `(${types.map((type) => `?::${type}`).join(', ')})`;
  return new Array(rows).fill(tuple).join(', ');
}

/** The CTE name that guarded writes test (`exists (select 1 from guard)`); see WriteBatch.runGuarded. */
export const GUARD = 'guard';

const isBuilder = (write: Knex.QueryBuilder | Write): write is Knex.QueryBuilder =>
  typeof (write as Knex.QueryBuilder).toSQL === 'function';

/**
 * Writes that go to the database together: one statement whatever their number, each write a
 * data-modifying sub-statement of a WITH. An advance's writes touch different rows of different
 * tables, so PostgreSQL may run them in any order; one round trip (and one parse) instead of one
 * per write is most of what an advance costs the database. The frequent writes come as SQL text
 * (a query builder compiling them at every advance cost as much CPU as the embedded database
 * running them); rare ones may still come as query builders.
 */
export class WriteBatch {
  private readonly writes: Array<Knex.QueryBuilder | Write> = [];

  add(write: Knex.QueryBuilder | Write | undefined): void {
    if (write) this.writes.push(write);
  }

  private parts(): Write[] {
    return this.writes.map((write) => {
      if (!isBuilder(write)) return write;
      const compiled = write.toSQL();
      return { sql: compiled.sql, bindings: [...compiled.bindings] };
    });
  }

  /** The writes as parts of a call's combined write (one statement with the call's audit record), named `label`_n. */
  addTo(write: CombinedWrite, label: string): void {
    for (const part of this.parts()) write.add(label, part.sql, part.bindings as Knex.RawBinding[]);
  }

  async run(trx: Knex.Transaction): Promise<void> {
    if (this.writes.length === 0) return;
    const parts = this.parts();
    const [last, ...rest] = [parts[parts.length - 1]!, ...parts.slice(0, -1)];
    const sql =
      rest.length === 0 ? last.sql : `WITH ${rest.map((part, i) => `w${i} AS (${part.sql})`).join(', ')} ${last.sql}`;
    await trx.raw(sql, [...rest.flatMap((part) => part.bindings), ...last.bindings] as Knex.RawBinding[]);
  }

  /**
   * The writes as one statement that does them only if `guard` (a data-modifying statement with
   * RETURNING) returns a row: `guard` runs as the CTE named GUARD, and every added write must test
   * it itself (`… where exists (select 1 from guard)`). All of them see the same snapshot and the
   * statement is atomic, so either every write happens or none does. Answers whether they did.
   */
  async runGuarded(trx: Knex.Transaction, guard: Write): Promise<boolean> {
    const parts = this.parts();
    const ctes = [`${GUARD} AS (${guard.sql})`, ...parts.map((part, i) => `w${i} AS (${part.sql})`)];
    const result = await trx.raw(`WITH ${ctes.join(', ')} SELECT count(*)::int AS n FROM ${GUARD}`, [
      ...guard.bindings,
      ...parts.flatMap((part) => part.bindings),
    ] as Knex.RawBinding[]);
    return Number((result.rows as Array<{ n: number }>)[0]?.n ?? 0) > 0;
  }
}

/** Runs one write on its own. */
export async function runWrite(db: Knex | Knex.Transaction, write: Write): Promise<void> {
  await db.raw(write.sql, write.bindings as Knex.RawBinding[]);
}

/** A text[] as PostgreSQL's array literal: knex would spread a JS array bound to `?` into a list of placeholders. */
export function textArray(values: readonly string[] | null | undefined): string | null {
  if (!values) return null;
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
