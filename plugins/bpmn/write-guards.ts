import type { Knex } from 'knex';
import type { Advance, Wait } from './instance-engine.js';
import { InstanceStore, type InstanceRow } from './store.js';

/** An unlocked advance found its instance moved on (or could not tell) before writing anything. */
export class Stale extends Error {}

/**
 * Whether an unlocked advance's writes can all be guarded: the instance waited and waits only
 * on tasks (timers and subscriptions are replaced by deletes that go first), no task vanished
 * but the one completed (cancelling it goes first), and nothing failed (incidents).
 */
export function guardable(
  previous: readonly Wait[],
  result: Advance,
  completedExecutionId: string | undefined,
): boolean {
  if (result.engineState === undefined || result.incidents.length > 0) return false;
  if (previous.some((w) => w.kind !== 'task') || result.waits.some((w) => w.kind !== 'task')) return false;
  const now = new Set(result.waits.map((w) => (w as Extract<Wait, { kind: 'task' }>).executionId));
  return previous.every((w) => w.kind !== 'task' || now.has(w.executionId) || w.executionId === completedExecutionId);
}

/**
 * Whether a combined advance's writes are all parts of one statement: the instance waited and
 * waits only on tasks and jobs, no task vanished (cancelling one goes first), nothing failed
 * (incidents), and an ended instance answers no parent (that locks the parent).
 */
export function combinable(row: InstanceRow, result: Advance): boolean {
  if (result.engineState === undefined || result.incidents.length > 0) return false;
  if (result.state === 'completed' && row.parent_id) return false;
  const simple = (w: Wait) => w.kind === 'task' || w.kind === 'job';
  if (!row.waiting.every(simple) || !result.waits.every(simple)) return false;
  const now = new Set(result.waits.map((w) => w.executionId));
  return row.waiting.every((w) => w.kind !== 'task' || now.has(w.executionId));
}

/**
 * For an advance of the unlocked `row` (see BpmnService.completeKept) before it writes: true when
 * its writes can all be guarded; false once task `taskId` and the instance are locked and the
 * instance is still the row the engine ran from; Stale, nothing written, when it moved on.
 */
export async function guardOrLock(
  db: Knex | Knex.Transaction,
  row: InstanceRow,
  result: Advance,
  taskId: string,
  completedExecutionId: string | undefined,
): Promise<boolean> {
  if (guardable(row.waiting, result, completedExecutionId)) return true;
  // Writes that cannot be guarded (deletes that go first, incidents): lock, and go on only if the row is the one the engine ran from.
  const locked = await new InstanceStore(db).lockTask(row.tenant_id, taskId);
  if (locked?.task.state !== 'open' || locked.instance.state !== 'active' || locked.instance.revision !== row.revision)
    throw new Stale();
  return false;
}
