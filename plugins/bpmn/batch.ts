import type { Knex } from 'knex';

/**
 * Writes that go to the database together: one statement whatever their number, each write a
 * data-modifying sub-statement of a WITH. An advance's writes touch different rows of different
 * tables, so PostgreSQL may run them in any order; one round trip (and one parse) instead of one
 * per write is most of what an advance costs the database.
 */
export class WriteBatch {
  private readonly writes: Knex.QueryBuilder[] = [];

  add(write: Knex.QueryBuilder | undefined): void {
    if (write) this.writes.push(write);
  }

  async run(trx: Knex.Transaction): Promise<void> {
    if (this.writes.length === 0) return;
    if (this.writes.length === 1) {
      await this.writes[0];
      return;
    }
    const parts = this.writes.map((write) => write.toSQL());
    const [last, ...rest] = [parts[parts.length - 1]!, ...parts.slice(0, -1)];
    const sql = `WITH ${rest.map((part, i) => `w${i} AS (${part.sql})`).join(', ')} ${last.sql}`;
    await trx.raw(sql, [...rest.flatMap((part) => part.bindings), ...last.bindings] as Knex.RawBinding[]);
  }
}
