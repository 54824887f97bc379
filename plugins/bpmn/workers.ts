import type { Knex } from 'knex';
import type { JobSpec } from '../../kernel/plugin/api.js';
import type { BpmnService } from './service.js';
import { WaitStore } from './store.js';

/**
 * Due timers: rows any kernel may fire. The job runs on one kernel at a time (its lease); each
 * instance is advanced in its own transaction under the instance's row lock, and only while a
 * due timer row is still there, so a timer fires once even when two kernels look at it.
 */
export function timerJob(db: Knex, service: BpmnService, options: { intervalMs: number; batch: number }): JobSpec {
  return {
    name: 'bpmn.timers',
    intervalMs: options.intervalMs,
    async run({ signal }) {
      const due = await new WaitStore(db).due(options.batch);
      for (const { tenant_id, instance_id } of due) {
        if (signal.aborted) return;
        try {
          await db.transaction(async (trx) => {
            const row = await service.lockInstance(trx, tenant_id, instance_id);
            if (row.state !== 'active' || !(await new WaitStore(trx).hasDueTimer(tenant_id, instance_id))) return;
            service.log(tenant_id, 'info', `A timer of instance ${instance_id} is due.`, { instance: instance_id });
            await service.advance(trx, row, { kind: 'resume' });
          });
        } catch (err) {
          service.log(
            tenant_id,
            'error',
            `Firing a timer of instance ${instance_id} failed: ${(err as Error).message}`,
            { instance: instance_id },
          );
        }
      }
      return due.length >= options.batch ? 'more' : undefined;
    },
  };
}
