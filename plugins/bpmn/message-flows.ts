import type { Knex } from 'knex';
import type { HistoryEntry } from './instance-engine.js';
import type { BpmnService } from './service.js';
import { DefinitionStore, WaitStore, type DefinitionRow, type InstanceRow } from './store.js';

/** What delivering messages needs of the service: reading definitions, starting, locking and advancing instances. */
type Instances = Pick<BpmnService, 'log' | 'definition' | 'start' | 'lockInstance' | 'advance'>;

/**
 * Delivers a message or signal to each subscribed instance (locked in id order, so two
 * deliveries never deadlock), optionally only to instances of one process; answers their ids.
 */
export async function deliver(
  service: Instances,
  trx: Knex.Transaction,
  tenantId: string,
  kind: 'message' | 'signal',
  name: string,
  correlationKey: string | undefined,
  variables: Record<string, unknown>,
  processId?: string,
): Promise<string[]> {
  const waits = new WaitStore(trx);
  const subscribers = await waits.subscribers(tenantId, kind, name, correlationKey);
  const instances = [...new Set(subscribers.map((s) => s.instance_id))].sort();
  const delivered: string[] = [];
  for (const id of instances) {
    let row = await service.lockInstance(trx, tenantId, id);
    if (processId !== undefined && row.process_id !== processId) continue;
    // Read again under the lock: another delivery may have moved the instance on meanwhile.
    const current = (await waits.subscribers(tenantId, kind, name, correlationKey)).filter((s) => s.instance_id === id);
    if (current.length === 0 || row.state !== 'active') continue;
    for (const ref of [...new Set(current.map((s) => s.ref))]) {
      if (row.state !== 'active') break;
      row = await service.advance(trx, row, { kind: 'signal', ref, variables });
    }
    delivered.push(id);
  }
  return delivered;
}

/**
 * Message flows between pools: each pool is its own instance, so when an activity a message
 * flow leaves has ended, its message goes to the other process's instances waiting for it
 * (correlated by the message's correlationKey variable, else by the business key), or starts an
 * instance of it when the flow enters a message start event. The sender's variables go along.
 */
export async function carryMessages(
  service: Instances,
  trx: Knex.Transaction,
  row: InstanceRow,
  definition: DefinitionRow,
  history: readonly HistoryEntry[],
): Promise<void> {
  const ended = new Set(history.filter((h) => h.outcome === 'completed').map((h) => h.activityId));
  for (const flow of definition.meta.message_flows ?? []) {
    if (!ended.has(flow.source) || !flow.target_process) continue;
    const variable = flow.message_ref ? definition.meta.correlation[flow.message_ref] : undefined;
    const value = variable ? row.variables[variable] : row.business_key;
    const key = value === undefined || value === null ? undefined : String(value);
    const delivered = await deliver(
      service,
      trx,
      row.tenant_id,
      'message',
      flow.message,
      key,
      row.variables,
      flow.target_process,
    );
    if (delivered.length > 0 || !flow.target_is_start) continue;
    const target = await new DefinitionStore(trx).keyOf(row.tenant_id, flow.target_process);
    if (!target) continue;
    const targetDefinition = await service.definition(trx, row.tenant_id, target.key);
    if (targetDefinition.meta.executable === false) continue;
    let started = await service.start(trx, row.tenant_id, targetDefinition, {
      variables: row.variables,
      businessKey: row.business_key,
    });
    // It waits at its message start event: the message that started it is that one.
    for (const wait of started.waiting)
      if (wait.kind === 'message' && wait.activityId === flow.target_activity && started.state === 'active')
        started = await service.advance(trx, started, { kind: 'signal', ref: wait.ref, variables: row.variables });
    service.log(row.tenant_id, 'info', `Message "${flow.message}" from ${row.id} started instance ${started.id}.`, {
      instance: started.id,
      from: row.id,
    });
  }
}
