import type { Knex } from 'knex';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import type { Write } from './batch.js';
import type { Advance } from './instance-engine.js';
import type { ThreadedEngine } from './main-threaded-engine.js';
import type { InstanceRow } from './store.js';

/**
 * An advance an engine thread computed before the call's transaction opened (prepareStart,
 * prepareCompleteKept): the transaction then only writes it. On the embedded database the
 * transaction holds the one connection, so an engine run inside it would leave the database idle
 * while the thread works; outside it, the main thread serves other calls' writes meanwhile.
 */
export interface PreparedAdvance {
  row: InstanceRow;
  engine: ThreadedEngine;
  result: Advance;
}

/**
 * An advance whose writes go into a call's combined write (one statement with its audit record,
 * no transaction) instead of a transaction: see JobService.completeKept. The statement's guards
 * make it write nothing unless the job was still held by its worker and the instance still at
 * the revision the engine ran from; the call then runs again in a transaction.
 */
export interface CombinedAdvance {
  /** For reads (the definition, when not cached): not the call's transaction (it has none). */
  db: Knex | Knex.Transaction;
  write: CombinedWrite;
  /** The guard that closes the completed job at `now`, while its worker still holds it (JobStore.closeHeldQuery). */
  closeJob: (now: Date) => Write;
}

/** How an advance runs and writes, besides its input. */
export interface AdvanceOptions {
  /** A new instance: its row is inserted, and its first activity records the variables. */
  fresh?: boolean;
  completedTask?: { executionId: string; variables: Record<string, unknown> };
  /** The execution whose job this advance completes (its row closes as completed, not cancelled). */
  completedJob?: string;
  /** The row is not locked (see BpmnService.completeKept): the writes are guarded, or the task locked first. */
  unlocked?: { taskId: string };
  prepared?: PreparedAdvance;
}
