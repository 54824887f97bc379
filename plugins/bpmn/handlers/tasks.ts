import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf, type CallOf, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import type { PreparedAdvance } from '../advance-types.js';
import type { BpmnService } from '../service.js';
import { IncidentStore, InstanceStore, WaitStore, incidentView, taskView } from '../store.js';
import { JobStore } from '../store/jobs.js';
import { advancedInstance, fullInstance } from './instances.js';

type CompleteCall = CallOf<Operations['completeBpmnTask']>;

const trx = (call: Call): Knex.Transaction => call.db as Knex.Transaction;

/** User tasks, messages, signals and incidents: the inputs that move waiting instances on. */
export function taskHandlers(service: BpmnService): Record<string, Handler> {
  /** Completions a kept engine in an engine thread ran before the transaction (see PreparedAdvance). */
  const preparedCompletions = new WeakMap<CompleteCall, PreparedAdvance & { executionId: string }>();

  const deliver = (
    call: TenantCall,
    kind: 'message' | 'signal',
    name: string,
    correlationKey: string | undefined,
    variables: Record<string, unknown>,
  ) => service.deliver(trx(call), call.tenantId, kind, name, correlationKey, variables);

  return operationHandlers<Operations>({
    async listBpmnTasks(call) {
      const page = pageOf(call);
      const filters: Parameters<WaitStore['tasks']>[1] = {};
      for (const name of [
        'state',
        'assignee',
        'instance_id',
        'candidate_group',
        'candidate_user',
        'process_id',
        'business_key',
      ] as const) {
        const value = call.query[name];
        if (value !== undefined) filters[name] = value;
      }
      const rows = await new WaitStore(call.db).tasks(call.tenantId, filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(taskView) } };
    },

    async getBpmnTask(call) {
      const task = await new WaitStore(call.db).task(call.tenantId, call.params.id);
      if (!task) throw new ApiError('not_found', `No task "${call.params.id}".`);
      const instance = await new InstanceStore(call.db).get(call.tenantId, task.instance_id);
      const definition = instance
        ? await service.definition(call.db, call.tenantId, instance.definition_key)
        : undefined;
      const form = definition?.meta.tasks?.[task.activity_id]?.form;
      return {
        status: 200,
        body: {
          ...taskView(task),
          process_id: instance?.process_id ?? null,
          business_key: instance?.business_key ?? null,
          ...(form ? { form } : {}),
        },
      };
    },

    async claimBpmnTask(call) {
      const assignee = call.body.assignee;
      const waits = new WaitStore(call.db);
      const task = await waits.task(call.tenantId, call.params.id, { forUpdate: true });
      if (!task) throw new ApiError('not_found', `No task "${call.params.id}".`);
      if (task.state !== 'open') throw new ApiError('conflict', `Task ${task.id} is ${task.state}.`);
      if (task.assignee !== null && task.assignee !== assignee)
        throw new ApiError('conflict', `Task ${task.id} is claimed by "${task.assignee}"; unclaim it first.`);
      call.resourceId = task.id;
      return { status: 200, body: taskView((await waits.assign(call.tenantId, task.id, assignee))!) };
    },

    async unclaimBpmnTask(call) {
      const waits = new WaitStore(call.db);
      const task = await waits.task(call.tenantId, call.params.id, { forUpdate: true });
      if (!task) throw new ApiError('not_found', `No task "${call.params.id}".`);
      if (task.state !== 'open') throw new ApiError('conflict', `Task ${task.id} is ${task.state}.`);
      call.resourceId = task.id;
      return { status: 200, body: taskView((await waits.assign(call.tenantId, task.id, null))!) };
    },

    completeBpmnTask: Object.assign(
      async (call: CompleteCall) => {
        const variables = service.checkVariables(call.body.variables);
        // With this kernel's engine for the task kept, one guarded write does it (no lock, no read).
        const advanced = await service.completeKept(
          trx(call),
          call.tenantId,
          call.params.id,
          variables,
          preparedCompletions.get(call),
        );
        if (advanced) return { status: 200, body: await advancedInstance(call.db, advanced) };
        // Else, or when the instance moved on meanwhile: the task and its instance are locked in one statement.
        const locked = await new InstanceStore(call.db).lockTask(call.tenantId, call.params.id);
        if (!locked) throw new ApiError('not_found', `No task "${call.params.id}".`);
        const { task, instance } = locked;
        if (task.state !== 'open') throw new ApiError('conflict', `Task ${task.id} is already ${task.state}.`);
        if (instance.state !== 'active')
          throw new ApiError(
            'conflict',
            `Instance ${instance.id} is ${instance.state}; its tasks cannot be completed now.`,
          );
        // The row as this kernel last wrote it, when nobody advanced the instance since (its revision says); else read (it is locked).
        const row =
          service.keptRow(call.tenantId, instance.id, instance.revision) ??
          (await new InstanceStore(call.db).get(call.tenantId, instance.id));
        if (!row) throw new ApiError('not_found', `No task "${call.params.id}".`);
        const saved = await service.advance(
          trx(call),
          row,
          { kind: 'signal', ref: task.activity_id, executionId: task.execution_id, variables },
          { completedTask: { executionId: task.execution_id, variables } },
        );
        // The advance closes the task as completed. When it fails (an incident), the instance keeps its
        // previous state and the task stays open, to be completed again once the incident is resolved.
        return { status: 200, body: await advancedInstance(call.db, saved) };
      },
      {
        /**
         * A kept engine in an engine thread runs the completion here, while no connection is held;
         * the handler's guarded write then stores it, or (the instance moved on) locks and runs
         * again from the saved state. Not with a request_id (a repeated one must not run the engine).
         */
        async beforeTransaction(call: CompleteCall) {
          const body = call.body;
          if (body.request_id !== undefined) return;
          try {
            const prepared = await service.prepareCompleteKept(
              call.db,
              call.tenantId,
              call.params.id,
              service.checkVariables(body.variables),
            );
            if (prepared) preparedCompletions.set(call, prepared);
          } catch {
            // The handler answers the error.
          }
        },
      },
    ),

    async correlateBpmnMessage(call) {
      const body = call.body;
      const variables = service.checkVariables(body.variables);
      const delivered = await deliver(call, 'message', body.name, body.correlation_key, variables);
      if (delivered.length === 0)
        throw new ApiError(
          'not_found',
          `No instance waits for message "${body.name}"${body.correlation_key !== undefined ? ` with correlation key "${body.correlation_key}"` : ''}.`,
        );
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), instances: delivered };
      return { status: 200, body: { correlated: delivered.length, instances: delivered } };
    },

    async broadcastBpmnSignal(call) {
      const body = call.body;
      const variables = service.checkVariables(body.variables);
      const delivered = await deliver(call, 'signal', body.name, undefined, variables);
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), instances: delivered };
      return { status: 200, body: { correlated: delivered.length, instances: delivered } };
    },

    async listBpmnIncidents(call) {
      const page = pageOf(call);
      const filters: { state?: string; instance_id?: string } = {};
      for (const name of ['state', 'instance_id'] as const) {
        const value = call.query[name];
        if (value !== undefined) filters[name] = value;
      }
      const rows = await new IncidentStore(call.db).list(call.tenantId, filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(incidentView) } };
    },

    async resolveBpmnIncident(call) {
      const body = call.body;
      const variables = service.checkVariables(body.variables);
      const incidents = new IncidentStore(call.db);
      const incident = await incidents.get(call.tenantId, call.params.id, { forUpdate: true });
      if (!incident) throw new ApiError('not_found', `No incident "${call.params.id}".`);
      if (incident.state !== 'open') throw new ApiError('conflict', `Incident ${incident.id} is already resolved.`);
      const row = await service.lockInstance(trx(call), call.tenantId, incident.instance_id);
      const now = service.clock.now();
      await incidents.resolveOpen(row.tenant_id, row.id, now);
      service.log(row.tenant_id, 'info', `Incident ${incident.id} resolved; instance ${row.id} retries.`, {
        instance: row.id,
        incident: incident.id,
      });
      // New variables go in before the retry: the same bad data would fail the same way again.
      const saved = await service.advance(
        trx(call),
        { ...row, state: 'active', variables: { ...row.variables, ...variables } },
        row.state_revision !== null ? { kind: 'resume', variables } : { kind: 'start' },
      );
      // A job that failed for good is open again for the workers.
      if ((await new JobStore(call.db).reopenFailed(row.tenant_id, row.id, body.retries, now)) > 0)
        void trx(call).executionPromise.then(
          () => service.jobsCreated.emit('created', row.tenant_id),
          () => undefined,
        );
      return { status: 200, body: await fullInstance(call.db, saved) };
    },
  });
}
