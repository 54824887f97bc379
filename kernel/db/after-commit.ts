import type { Knex } from 'knex';

type Transactor = Partial<Knex.Transaction> & { parentTransaction?: Transactor };

/**
 * Runs `callback` once what `db` wrote is committed: at once when `db` is not a transaction,
 * after the outermost transaction commits when it is one (a savepoint's release commits
 * nothing), and never when it or any transaction around it rolls back.
 */
export function afterCommit(db: Knex | Knex.Transaction, callback: () => void): void {
  const settled: Array<Promise<unknown>> = [];
  for (let trx: Transactor | undefined = db as Transactor; trx?.executionPromise; trx = trx.parentTransaction)
    settled.push(trx.executionPromise);
  if (settled.length === 0) return callback();
  Promise.all(settled).then(callback, () => undefined);
}
