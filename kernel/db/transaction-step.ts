import type { Knex } from 'knex';
import type { Call, KernelServices, Reply, Step, StepFactory } from '../types.js';
import { CombinedWrite, RunInTransaction, commitCombined } from './combined-write.js';
import { confirmCredential } from '../pipeline/remembered-credential.js';

/**
 * Grouped statements at once on a server (kernel/db/combined-write.ts): two, so one group's round
 * trip does not hold the next back; the embedded database runs one at a time on its one connection.
 */
const SERVER_LANES = 2;

/** Thrown inside the transaction to roll it back while keeping the reply (dry runs). */
class RollbackWith extends Error {
  constructor(readonly reply: Reply) {
    super('rollback');
  }
}

/** Work that must commit together with the call's effect, such as its audit record. */
export type BeforeCommit = (trx: Knex.Transaction, call: Call, reply: Reply, kernel: KernelServices) => Promise<void>;

/**
 * The same work for a call whose writes are combined into one statement: it adds its own part,
 * or says (before the handler runs) that it cannot, and the call then runs in a transaction.
 * When the statement failed on its part, it may answer the call instead (`answer`, after the
 * failure: nothing of the statement committed).
 */
export interface CombinedCommit {
  supported(call: Call, kernel: KernelServices): boolean;
  add(write: CombinedWrite, call: Call, reply: Reply, kernel: KernelServices): void;
  answer?(err: unknown, call: Call, kernel: KernelServices): Promise<Reply | undefined>;
}

/**
 * A mutating route's handler runs inside one database transaction; whatever must commit with
 * the effect (its audit record) is written by the `beforeCommit` hooks in the same transaction.
 * A dry run executes everything and then rolls back, skipping the hooks. The handler's
 * `beforeTransaction` work, when it has some, runs first, outside the transaction. A handler that
 * asks for a combined write (`combinedWrite`) gets no transaction: its writes and the hooks' parts
 * go as one statement (kernel/db/combined-write.ts), grouped with other calls' on the embedded database.
 */
export function transactionStep(beforeCommit: BeforeCommit[] = [], combinedCommit: CombinedCommit[] = []): StepFactory {
  return (route, kernel, handler) => {
    // A route that changes nothing itself and records no audit needs no write transaction. The
    // MCP transport is one: it dispatches each tool call into that tool's own pipeline and
    // transaction, and holding one here would pin a pooled connection for the whole call — on
    // the embedded database the only one, so the nested call would wait for it forever.
    if (!route.mutating || (route.decl.read_only && route.auditClass === 'none')) return null;
    // A handler that stores nothing (a sandboxed run) may say so: it then holds no connection
    // while it works — on the embedded database the only one — and the audit step writes its
    // record after it, as it does for every call that did not commit one.
    if (route.decl.transaction === false) return null;
    const before = handler?.beforeTransaction;
    const combines = handler?.combinedWrite;
    /** The handler and the hooks in one transaction (a dry run's rolled back). */
    async function inTransaction(call: Call, next: () => Promise<Reply>): Promise<Reply> {
      // A principal taken from an authenticator's memory is confirmed by a combined write's own
      // statement; without one it is read afresh here, before the handler runs (a no-op otherwise).
      await confirmCredential(call);
      try {
        return await kernel.db.transaction(async (trx) => {
          call.db = trx;
          const reply = await next();
          if (call.dryRun) throw new RollbackWith(reply);
          for (const hook of beforeCommit) await hook(trx, call, reply, kernel);
          return reply;
        });
      } catch (err) {
        if (err instanceof RollbackWith) return err.reply;
        // Whatever the hooks wrote was rolled back with the effect.
        call.notes.audited = false;
        throw err;
      } finally {
        call.db = kernel.db;
      }
    }
    /**
     * One statement for the handler's writes and the hooks' parts, when all of them can (see
     * CombinedWrite). When the handler or a part says the call needs a transaction after all
     * (RunInTransaction: nothing was written), it runs again in one.
     */
    async function combined(call: Call, next: () => Promise<Reply>): Promise<Reply> {
      const write = new CombinedWrite();
      call.write = write;
      try {
        const reply = await next();
        for (const hook of combinedCommit) hook.add(write, call, reply, kernel);
        await commitCombined(kernel.db, write, { lanes: kernel.config.database.url === undefined ? 1 : SERVER_LANES });
        return reply;
      } catch (err) {
        call.notes.audited = false;
        delete call.write;
        if (err instanceof RunInTransaction) return inTransaction(call, next);
        for (const hook of combinedCommit) {
          const answer = await hook.answer?.(err, call, kernel);
          if (answer) return answer;
        }
        throw err;
      } finally {
        delete call.write;
      }
    }
    const step: Step = async (call, next) => {
      if (before && !call.dryRun) await before(call);
      if (combines && !call.dryRun && combinedCommit.every((hook) => hook.supported(call, kernel)) && combines(call)) {
        return combined(call, next);
      }
      return inTransaction(call, next);
    };
    // A call whose combined write was not sent runs again, in a transaction (see combined).
    return combines ? Object.assign(step, { repeatsNext: true }) : step;
  };
}
