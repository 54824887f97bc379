import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, pageOf } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { BpmnService, PreparedAdvance } from '../service.js';
import { IncidentStore, InstanceStore, WaitStore, incidentView, taskView } from '../store.js';
import { advancedInstance, fullInstance } from './instances.js';

const tenant = (call: Call): string => call.tenantId as string;
const trx = (call: Call): Knex.Transaction => call.db as Knex.Transaction;

/** User tasks, messages, signals and incidents: the inputs that move waiting instances on. */
export function taskHandlers(service: BpmnService): Record<string, Handler> {
  /** Completions a kept engine in an engine thread ran before the transaction (see PreparedAdvance). */
  const preparedCompletions = new WeakMap<Call, PreparedAdvance & { executionId: string }>();

  /** Delivers a message or signal to each subscribed instance (locked in id order, so two deliveries never deadlock). */
  async function deliver(call: Call, kind: 'message' | 'signal', name: string, correlationKey: string | undefined, variables: Record<string, unknown>): Promise<string[]> {
    const waits = new WaitStore(call.db);
    const subscribers = await waits.subscribers(tenant(call), kind, name, correlationKey);
    const instances = [...new Set(subscribers.map((s) => s.instance_id))].sort();
    const delivered: string[] = [];
    for (const id of instances) {
      let row = await service.lockInstance(trx(call), tenant(call), id);
      // Read again under the lock: another delivery may have moved the instance on meanwhile.
      const current = (await waits.subscribers(tenant(call), kind, name, correlationKey)).filter((s) => s.instance_id === id);
      if (current.length === 0 || row.state !== 'active') continue;
      for (const ref of [...new Set(current.map((s) => s.ref))]) {
        if (row.state !== 'active') break;
        row = await service.advance(trx(call), row, { kind: 'signal', ref, variables });
      }
      delivered.push(id);
    }
    return delivered;
  }

  return {
    async listBpmnTasks(call) {
      const page = pageOf(call);
      const filters: { state?: string; assignee?: string; instance_id?: string } = {};
      for (const name of ['state', 'assignee', 'instance_id'] as const) if (typeof call.query[name] === 'string') filters[name] = call.query[name] as string;
      const rows = await new WaitStore(call.db).tasks(tenant(call), filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(taskView) } };
    },

    completeBpmnTask: Object.assign(async (call: Call) => {
      const variables = service.checkVariables((call.body as { variables?: unknown }).variables);
      // With this kernel's engine for the task kept, one guarded write does it (no lock, no read).
      const advanced = await service.completeKept(trx(call), tenant(call), String(call.params.id), variables, preparedCompletions.get(call));
      if (advanced) return { status: 200, body: await advancedInstance(call.db, advanced) };
      // Else, or when the instance moved on meanwhile: the task and its instance are locked in one statement.
      const locked = await new InstanceStore(call.db).lockTask(tenant(call), String(call.params.id));
      if (!locked) throw new ApiError('not_found', `No task "${String(call.params.id)}".`);
      const { task, instance } = locked;
      if (task.state !== 'open') throw new ApiError('conflict', `Task ${task.id} is already ${task.state}.`);
      if (instance.state !== 'active') throw new ApiError('conflict', `Instance ${instance.id} is ${instance.state}; its tasks cannot be completed now.`);
      // The row as this kernel last wrote it, when nobody advanced the instance since (its revision says); else read (it is locked).
      const row = service.keptRow(tenant(call), instance.id, instance.revision) ?? (await new InstanceStore(call.db).get(tenant(call), instance.id));
      if (!row) throw new ApiError('not_found', `No task "${String(call.params.id)}".`);
      const saved = await service.advance(trx(call), row, { kind: 'signal', ref: task.activity_id, executionId: task.execution_id, variables }, { completedTask: { executionId: task.execution_id, variables } });
      // The advance closes the task as completed. When it fails (an incident), the instance keeps its
      // previous state and the task stays open, to be completed again once the incident is resolved.
      return { status: 200, body: await advancedInstance(call.db, saved) };
    }, {
      /**
       * A kept engine in an engine thread runs the completion here, while no connection is held;
       * the handler's guarded write then stores it, or (the instance moved on) locks and runs
       * again from the saved state. Not with a request_id (a repeated one must not run the engine).
       */
      async beforeTransaction(call: Call) {
        const body = call.body as { variables?: unknown; request_id?: string };
        if (body.request_id !== undefined) return;
        try {
          const prepared = await service.prepareCompleteKept(call.db, tenant(call), String(call.params.id), service.checkVariables(body.variables));
          if (prepared) preparedCompletions.set(call, prepared);
        } catch {
          // The handler answers the error.
        }
      },
    }),

    async correlateBpmnMessage(call) {
      const body = call.body as { name: string; correlation_key?: string; variables?: unknown };
      const variables = service.checkVariables(body.variables);
      const delivered = await deliver(call, 'message', body.name, body.correlation_key, variables);
      if (delivered.length === 0) throw new ApiError('not_found', `No instance waits for message "${body.name}"${body.correlation_key !== undefined ? ` with correlation key "${body.correlation_key}"` : ''}.`);
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), instances: delivered };
      return { status: 200, body: { correlated: delivered.length, instances: delivered } };
    },

    async broadcastBpmnSignal(call) {
      const body = call.body as { name: string; variables?: unknown };
      const variables = service.checkVariables(body.variables);
      const delivered = await deliver(call, 'signal', body.name, undefined, variables);
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), instances: delivered };
      return { status: 200, body: { correlated: delivered.length, instances: delivered } };
    },

    async listBpmnIncidents(call) {
      const page = pageOf(call);
      const filters: { state?: string; instance_id?: string } = {};
      for (const name of ['state', 'instance_id'] as const) if (typeof call.query[name] === 'string') filters[name] = call.query[name] as string;
      const rows = await new IncidentStore(call.db).list(tenant(call), filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(incidentView) } };
    },

    async resolveBpmnIncident(call) {
      const incidents = new IncidentStore(call.db);
      const incident = await incidents.get(tenant(call), String(call.params.id), { forUpdate: true });
      if (!incident) throw new ApiError('not_found', `No incident "${String(call.params.id)}".`);
      if (incident.state !== 'open') throw new ApiError('conflict', `Incident ${incident.id} is already resolved.`);
      const row = await service.lockInstance(trx(call), tenant(call), incident.instance_id);
      await incidents.resolveOpen(row.tenant_id, row.id, service.clock.now());
      service.log(row.tenant_id, 'info', `Incident ${incident.id} resolved; instance ${row.id} retries.`, { instance: row.id, incident: incident.id });
      const saved = await service.advance(trx(call), { ...row, state: 'active' }, row.state_revision !== null ? { kind: 'resume' } : { kind: 'start' });
      return { status: 200, body: await fullInstance(call.db, saved) };
    },
  };
}
