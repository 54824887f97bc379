import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { BpmnService } from './service.js';
import { JobStore } from './store/jobs.js';
import { IncidentStore, InstanceStore, WaitStore, type InstanceRow } from './store.js';

/** States an instance can still be cancelled from. */
const OPEN_STATES = ['active', 'incident'];

/**
 * Cancels the locked instance `row` and, first, every instance its call activities started that
 * is still open, depth first, so no child goes on running (or holding jobs and tasks) for a parent
 * that is gone. A child is not cancelled on its own: its parent waits on it, and would wait
 * forever (as Camunda 8 does, the root is cancelled instead). Answers the row as cancelled.
 */
export async function cancelTree(
  service: BpmnService,
  trx: Knex.Transaction,
  row: InstanceRow,
  options: { asChild?: boolean } = {},
): Promise<InstanceRow> {
  if (row.state === 'completed' || row.state === 'cancelled')
    throw new ApiError('conflict', `Instance ${row.id} is already ${row.state}.`);
  if (!options.asChild && row.parent_id) {
    const parent = await new InstanceStore(trx).get(row.tenant_id, row.parent_id);
    if (parent && OPEN_STATES.includes(parent.state))
      throw new ApiError(
        'conflict',
        `Instance ${row.id} was started by the call activity of instance ${row.parent_id}, which waits on it; cancel ${row.parent_id} (its children are cancelled with it).`,
      );
  }
  for (const child of await new InstanceStore(trx).childrenIn(row.tenant_id, row.id, OPEN_STATES)) {
    const locked = await service.lockInstance(trx, row.tenant_id, child);
    if (OPEN_STATES.includes(locked.state)) await cancelTree(service, trx, locked, { asChild: true });
  }
  const now = service.clock.now();
  await new WaitStore(trx).clear(row.tenant_id, row.id, now, 'cancelled');
  await new IncidentStore(trx).resolveOpen(row.tenant_id, row.id, now);
  await new JobStore(trx).cancelAll(row.tenant_id, row.id, now);
  const cancelled: Pick<InstanceRow, 'state' | 'waiting' | 'revision' | 'updated_at' | 'ended_at'> = {
    state: 'cancelled',
    waiting: [],
    revision: row.revision + 1,
    updated_at: now,
    ended_at: now,
  };
  await new InstanceStore(trx).save(row.tenant_id, row.id, cancelled);
  service.forget(row.id);
  service.log(
    row.tenant_id,
    'info',
    options.asChild ? `Instance ${row.id} cancelled with its parent.` : `Instance ${row.id} cancelled.`,
    { instance: row.id },
  );
  return { ...row, ...cancelled };
}
