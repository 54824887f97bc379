import type { Knex } from 'knex';
import type { Reply, StepFactory } from '../../types.js';

/** Thrown inside the transaction to roll it back while keeping the reply (dry runs). */
class RollbackWith extends Error {
  constructor(readonly reply: Reply) {
    super('rollback');
  }
}

/**
 * A mutating route's handler runs inside one database transaction; whatever must commit with
 * the effect (its audit record) is written by `beforeCommit` in the same transaction. A dry
 * run executes everything and then rolls back.
 */
export function transactionStep(beforeCommit: (trx: Knex.Transaction, call: Parameters<ReturnType<StepFactory> & object>[0], reply: Reply) => Promise<void>): StepFactory {
  return (route, kernel) => {
    if (!route.mutating) return null;
    return async (call, next) => {
      try {
        return await kernel.db.transaction(async (trx) => {
          call.db = trx;
          const reply = await next();
          if (call.dryRun) throw new RollbackWith(reply);
          await beforeCommit(trx, call, reply);
          return reply;
        });
      } catch (err) {
        if (err instanceof RollbackWith) return err.reply;
        throw err;
      } finally {
        call.db = kernel.db;
      }
    };
  };
}
