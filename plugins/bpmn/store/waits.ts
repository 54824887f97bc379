import type { Knex } from 'knex';
import { GUARD, WriteBatch, textArray, typedValuesList, valuesList } from '../batch.js';
import type { Wait } from '../instance-engine.js';
import { type Db, GUARDED, iso } from './common.js';

/** What instances wait for: user tasks, message and signal subscriptions, due timers. */

export interface TaskRow {
  tenant_id: string;
  id: string;
  instance_id: string;
  activity_id: string;
  execution_id: string;
  name: string | null;
  state: 'open' | 'completed' | 'cancelled';
  assignee: string | null;
  candidate_users?: string[] | null;
  candidate_groups?: string[] | null;
  due_at?: Date | null;
  variables: Record<string, unknown> | null;
  created_at: Date;
  completed_at: Date | null;
}

export function taskView(row: TaskRow): Record<string, unknown> {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    instance_id: row.instance_id,
    activity_id: row.activity_id,
    name: row.name,
    state: row.state,
    assignee: row.assignee,
    candidate_users: row.candidate_users ?? [],
    candidate_groups: row.candidate_groups ?? [],
    due_at: iso(row.due_at),
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
  };
}

export interface SubscriptionRow {
  tenant_id: string;
  instance_id: string;
  kind: 'message' | 'signal';
  name: string;
  ref: string;
  correlation_key: string | null;
  activity_id: string;
}

const TASK_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'timestamptz',
  'text',
  'text[]',
  'text[]',
  'timestamptz',
];

const TASK_COLUMNS =
  'tenant_id, id, instance_id, activity_id, execution_id, name, state, created_at, assignee, candidate_users, candidate_groups, due_at';

export class WaitStore {
  constructor(private readonly db: Db) {}

  /**
   * Makes the rows say what the instance waits for now: open tasks kept by execution (new ones
   * added, vanished ones cancelled), subscriptions and timers replaced.
   */
  async replace(
    tenantId: string,
    instanceId: string,
    previous: readonly Wait[],
    waits: readonly Wait[],
    taskId: (executionId: string) => string,
    now: Date,
    completed?: { executionId: string; variables: Record<string, unknown> },
  ): Promise<void> {
    const batch = new WriteBatch();
    await this.replaceInto(batch, tenantId, instanceId, previous, waits, taskId, now, completed);
    await batch.run(this.db as Knex.Transaction);
  }

  /**
   * The same, with the inserts and the completed task's update added to `batch` (written with
   * the rest of an advance); what must go before them (deletes, cancellations, rare) runs now.
   */
  async replaceInto(
    batch: WriteBatch,
    tenantId: string,
    instanceId: string,
    previous: readonly Wait[],
    waits: readonly Wait[],
    taskId: (executionId: string) => string,
    now: Date,
    completed?: { executionId: string; variables: Record<string, unknown> },
    guarded = false,
  ): Promise<void> {
    const tasksOf = (list: readonly Wait[]) =>
      list.filter((w): w is Extract<Wait, { kind: 'task' }> => w.kind === 'task');
    const waiting = new Set(tasksOf(waits).map((t) => t.executionId));
    const before = new Set(tasksOf(previous).map((t) => t.executionId));
    let gone = [...before].filter((e) => !waiting.has(e));
    // The task this advance completed is closed as completed (with its variables), the others that vanished as cancelled.
    if (completed && gone.includes(completed.executionId)) {
      batch.add({
        sql: `update bpmn_tasks set state = 'completed', completed_at = ?, variables = ? where tenant_id = ? and instance_id = ? and execution_id = ?${guarded ? ` and exists (select 1 from ${GUARD})` : ''}`,
        bindings: [now, JSON.stringify(completed.variables), tenantId, instanceId, completed.executionId],
      });
      gone = gone.filter((e) => e !== completed.executionId);
    }
    if (guarded && (gone.length > 0 || waits.some((w) => w.kind !== 'task') || previous.some((w) => w.kind !== 'task')))
      throw new Error('Only task waits are written guarded.');
    if (gone.length > 0)
      await this.db('bpmn_tasks')
        .where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' })
        .whereIn('execution_id', gone)
        .update({ state: 'cancelled', completed_at: now });
    const added = tasksOf(waits).filter((t) => !before.has(t.executionId));
    if (added.length > 0) {
      batch.add({
        sql: guarded
          ? `insert into bpmn_tasks (${TASK_COLUMNS}) select * from (values ${typedValuesList(added.length, TASK_TYPES)}) v${GUARDED} on conflict (tenant_id, instance_id, execution_id) do nothing`
          : `insert into bpmn_tasks (${TASK_COLUMNS}) values ${valuesList(added.length, TASK_TYPES.length)} on conflict (tenant_id, instance_id, execution_id) do nothing`,
        bindings: added.flatMap((t) => [
          tenantId,
          taskId(t.executionId),
          instanceId,
          t.activityId,
          t.executionId,
          t.name,
          'open',
          t.createdAt ? new Date(t.createdAt) : now,
          t.assignee ?? null,
          textArray(t.candidateUsers),
          textArray(t.candidateGroups),
          t.dueAt ? new Date(t.dueAt) : null,
        ]),
      });
    }
    // Deletes run before the batch: a row deleted and inserted again in one statement would conflict with itself.
    const subscriptionsOf = (list: readonly Wait[]) =>
      list.filter(
        (w): w is Extract<Wait, { kind: 'message' | 'signal' }> => w.kind === 'message' || w.kind === 'signal',
      );
    if (subscriptionsOf(previous).length > 0)
      await this.db('bpmn_subscriptions').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    const subscriptions = subscriptionsOf(waits);
    if (subscriptions.length > 0) {
      batch.add(
        this.db('bpmn_subscriptions')
          .insert(
            subscriptions.map((s) => ({
              tenant_id: tenantId,
              instance_id: instanceId,
              kind: s.kind,
              name: s.name,
              ref: s.ref,
              correlation_key: s.correlationKey ?? null,
              activity_id: s.activityId,
            })),
          )
          .onConflict(['tenant_id', 'instance_id', 'kind', 'ref', 'activity_id'])
          .ignore(),
      );
    }
    const timersOf = (list: readonly Wait[]) =>
      list.filter((w): w is Extract<Wait, { kind: 'timer' }> => w.kind === 'timer');
    if (timersOf(previous).length > 0)
      await this.db('bpmn_timers').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    const timers = timersOf(waits);
    if (timers.length > 0)
      batch.add(
        this.db('bpmn_timers').insert(
          timers.map((t) => ({
            tenant_id: tenantId,
            instance_id: instanceId,
            execution_id: t.executionId,
            activity_id: t.activityId,
            due_at: t.dueAt,
          })),
        ),
      );
  }

  async clear(tenantId: string, instanceId: string, now: Date, taskState: 'cancelled'): Promise<void> {
    await this.db('bpmn_tasks')
      .where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' })
      .update({ state: taskState, completed_at: now });
    await this.db('bpmn_subscriptions').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    await this.db('bpmn_timers').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
  }

  task(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<TaskRow | undefined> {
    const query = this.db('bpmn_tasks').where({ tenant_id: tenantId, id }).first();
    return options.forUpdate ? query.forUpdate() : query;
  }

  tasks(
    tenantId: string,
    filters: {
      state?: string;
      assignee?: string;
      instance_id?: string;
      candidate_group?: string;
      candidate_user?: string;
      process_id?: string;
      business_key?: string;
    },
    after: string | undefined,
    fetch: number,
  ): Promise<TaskRow[]> {
    const query = this.db('bpmn_tasks as t').select('t.*').where('t.tenant_id', tenantId).orderBy('t.id').limit(fetch);
    for (const column of ['state', 'assignee', 'instance_id'] as const)
      if (filters[column] !== undefined) query.andWhere(`t.${column}`, filters[column]);
    if (filters.candidate_group !== undefined)
      query.andWhereRaw('? = any(t.candidate_groups)', [filters.candidate_group]);
    if (filters.candidate_user !== undefined) query.andWhereRaw('? = any(t.candidate_users)', [filters.candidate_user]);
    if (filters.process_id !== undefined || filters.business_key !== undefined) {
      query.join('bpmn_instances as i', function () {
        this.on('i.tenant_id', '=', 't.tenant_id').andOn('i.id', '=', 't.instance_id');
      });
      if (filters.process_id !== undefined) query.andWhere('i.process_id', filters.process_id);
      if (filters.business_key !== undefined) query.andWhere('i.business_key', filters.business_key);
    }
    if (after !== undefined) query.andWhere('t.id', '>', after);
    return query;
  }

  /** Claims an open task for `assignee` (or, with null, gives it back); answers the row as it is now. */
  async assign(tenantId: string, id: string, assignee: string | null): Promise<TaskRow | undefined> {
    const [row] = await this.db('bpmn_tasks').where({ tenant_id: tenantId, id }).update({ assignee }).returning('*');
    return row as TaskRow | undefined;
  }

  subscribers(
    tenantId: string,
    kind: 'message' | 'signal',
    name: string,
    correlationKey: string | null | undefined,
  ): Promise<SubscriptionRow[]> {
    const query = this.db('bpmn_subscriptions')
      .where({ tenant_id: tenantId, kind, name })
      .orderBy(['instance_id', 'activity_id']);
    if (correlationKey !== undefined) query.andWhere('correlation_key', correlationKey);
    return query;
  }

  /** Instances with a timer due by the database's clock, oldest first, across tenants (the timer job's view). */
  due(limit: number): Promise<Array<{ tenant_id: string; instance_id: string }>> {
    return this.db('bpmn_timers')
      .distinct('tenant_id', 'instance_id')
      .where('due_at', '<=', this.db.raw('now()'))
      .limit(limit);
  }

  async hasDueTimer(tenantId: string, instanceId: string): Promise<boolean> {
    const row = await this.db('bpmn_timers')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .andWhere('due_at', '<=', this.db.raw('now()'))
      .first();
    return Boolean(row);
  }

  async waitsOf(
    tenantId: string,
    instanceId: string,
  ): Promise<{
    tasks: TaskRow[];
    subscriptions: SubscriptionRow[];
    timers: Array<{ activity_id: string; due_at: Date }>;
  }> {
    // One after another: `db` may be a transaction, whose one connection takes one query at a time.
    const tasks = await this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy('id');
    const subscriptions = await this.db('bpmn_subscriptions')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .orderBy('activity_id');
    const timers = await this.db('bpmn_timers')
      .select('activity_id', 'due_at')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .orderBy('due_at');
    return { tasks, subscriptions, timers };
  }
}
