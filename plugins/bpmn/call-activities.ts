import type { Knex } from 'knex';
import { newId } from './ids.js';
import type { Wait } from './instance-engine.js';
import type { BpmnService } from './service.js';
import { DefinitionStore, IncidentStore, InstanceStore, type InstanceRow } from './store.js';

/** What call activities need of the service: reading definitions, starting, locking and advancing instances. */
type Instances = Pick<BpmnService, 'clock' | 'log' | 'definition' | 'start' | 'lockInstance' | 'advance' | 'forget'>;

/**
 * A call activity whose process is another definition starts a child instance of it (the
 * version it pins, else the latest) with the parent's variables and business key; the child
 * answers the parent when it completes (answerParent). No such process: an incident on the parent.
 */
export async function startChild(
  service: Instances,
  trx: Knex.Transaction,
  parent: InstanceRow,
  wait: Extract<Wait, { kind: 'call' }>,
): Promise<void> {
  const found = await new DefinitionStore(trx).keyOf(parent.tenant_id, wait.processId, wait.version);
  const definition = found ? await service.definition(trx, parent.tenant_id, found.key) : undefined;
  if (!definition || definition.meta.executable === false) {
    const message = `Call activity ${wait.activityId} calls process "${wait.processId}"${wait.version !== undefined ? ` version ${wait.version}` : ''}, which is not deployed${definition ? ' as executable' : ''}; deploy it and resolve this incident.`;
    const now = service.clock.now();
    await new IncidentStore(trx).insert({
      tenant_id: parent.tenant_id,
      id: newId('bpx'),
      instance_id: parent.id,
      activity_id: wait.activityId,
      message,
      state: 'open',
      created_at: now,
      resolved_at: null,
    });
    parent.state = 'incident';
    await new InstanceStore(trx).save(parent.tenant_id, parent.id, { state: 'incident', updated_at: now });
    service.forget(parent.id);
    service.log(parent.tenant_id, 'error', message, { instance: parent.id, activity: wait.activityId });
    return;
  }
  const child = await service.start(trx, parent.tenant_id, definition, {
    variables: parent.variables,
    businessKey: parent.business_key,
    parent: { id: parent.id, executionId: wait.executionId },
  });
  service.log(
    parent.tenant_id,
    'info',
    `Instance ${child.id} of ${definition.process_id} v${definition.version} called by ${parent.id}.`,
    {
      instance: child.id,
      parent: parent.id,
    },
  );
}

/** A completed child completes its parent's call activity, its variables going back unless the model says not. */
export async function answerParent(service: Instances, trx: Knex.Transaction, child: InstanceRow): Promise<void> {
  const parent = await service.lockInstance(trx, child.tenant_id, child.parent_id!);
  const wait = parent.waiting.find((w) => w.kind === 'call' && w.executionId === child.parent_execution_id);
  if (parent.state !== 'active' || !wait) return;
  const parentDefinition = await service.definition(trx, parent.tenant_id, parent.definition_key);
  const back = parentDefinition.meta.calls?.[wait.activityId]?.variables_out !== false;
  await service.advance(trx, parent, {
    kind: 'signal',
    ref: wait.activityId,
    executionId: wait.executionId,
    ...(back ? { variables: child.variables } : {}),
  });
}
