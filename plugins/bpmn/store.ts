import type { Knex } from 'knex';
import type { DefinitionMeta } from './definitions.js';
import type { HistoryEntry, Wait } from './engine.js';
import { WriteBatch } from './batch.js';

/** All of the plugin's SQL. Every query names the tenant first. */

type Db = Knex | Knex.Transaction;
const iso = (d: unknown): string | null => (d === null || d === undefined ? null : new Date(d as string).toISOString());

export interface DefinitionRow {
  tenant_id: string;
  key: string;
  process_id: string;
  version: number;
  name: string | null;
  xml_hash: string;
  xml: string;
  meta: DefinitionMeta;
  created_at: Date;
}

export function definitionView(row: DefinitionRow): Record<string, unknown> {
  return { key: row.key, tenant_id: row.tenant_id, process_id: row.process_id, version: row.version, name: row.name, created_at: iso(row.created_at) };
}

export class DefinitionStore {
  constructor(private readonly db: Db) {}

  byHash(tenantId: string, processId: string, hash: string): Promise<DefinitionRow | undefined> {
    return this.db('bpmn_definitions').where({ tenant_id: tenantId, process_id: processId, xml_hash: hash }).first();
  }

  async nextVersion(tenantId: string, processId: string): Promise<number> {
    const row = await this.db('bpmn_definitions').where({ tenant_id: tenantId, process_id: processId }).max({ v: 'version' }).first();
    return Number(row?.v ?? 0) + 1;
  }

  async insert(row: DefinitionRow): Promise<void> {
    await this.db('bpmn_definitions').insert({ ...row, meta: JSON.stringify(row.meta) });
  }

  get(tenantId: string, key: string): Promise<DefinitionRow | undefined> {
    return this.db('bpmn_definitions').where({ tenant_id: tenantId, key }).first();
  }

  /** The key of the given version of a process, or of its latest (the XML is not read: definitions are cached by key). */
  async keyOf(tenantId: string, processId: string, version?: number): Promise<{ key: string } | undefined> {
    const query = this.db('bpmn_definitions').select('key').where({ tenant_id: tenantId, process_id: processId });
    if (version !== undefined) return query.andWhere({ version }).first();
    return query.orderBy('version', 'desc').first();
  }

  list(tenantId: string, filters: { process_id?: string }, after: string | undefined, fetch: number): Promise<DefinitionRow[]> {
    const query = this.db('bpmn_definitions').select('tenant_id', 'key', 'process_id', 'version', 'name', 'created_at').where({ tenant_id: tenantId }).orderBy('key').limit(fetch);
    if (filters.process_id !== undefined) query.andWhere({ process_id: filters.process_id });
    if (after !== undefined) query.andWhere('key', '>', after);
    return query;
  }
}

export interface InstanceRow {
  tenant_id: string;
  id: string;
  definition_key: string;
  process_id: string;
  version: number;
  business_key: string | null;
  state: 'active' | 'completed' | 'cancelled' | 'incident';
  variables: Record<string, unknown>;
  waiting: Wait[];
  state_revision: number | null;
  revision: number;
  replay_of: string | null;
  replay_from: string | null;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

const INSTANCE_LIST_COLUMNS = ['tenant_id', 'id', 'definition_key', 'process_id', 'version', 'business_key', 'state', 'variables', 'waiting', 'state_revision', 'revision', 'replay_of', 'replay_from', 'created_at', 'updated_at', 'ended_at'];

export function instanceView(row: InstanceRow): Record<string, unknown> {
  return {
    id: row.id, tenant_id: row.tenant_id, definition_key: row.definition_key, process_id: row.process_id, version: row.version,
    business_key: row.business_key, state: row.state, variables: row.variables, replay_of: row.replay_of, replay_from: row.replay_from,
    created_at: iso(row.created_at), updated_at: iso(row.updated_at), ended_at: iso(row.ended_at),
  };
}

export class InstanceStore {
  constructor(private readonly db: Db) {}

  async insert(row: InstanceRow): Promise<void> {
    await this.insertQuery(row);
  }

  insertQuery(row: InstanceRow): Knex.QueryBuilder {
    return this.db('bpmn_instances').insert({ ...row, variables: JSON.stringify(row.variables), waiting: JSON.stringify(row.waiting) });
  }

  /**
   * The task and its instance, both locked for this transaction in one statement (completing a
   * task advances its instance); undefined when the tenant has no such task.
   */
  async lockTask(tenantId: string, taskId: string): Promise<{ task: Pick<TaskRow, 'id' | 'state' | 'activity_id' | 'execution_id'>; instance: InstanceRow } | undefined> {
    const result = await this.db.raw(
      `SELECT t.id AS task__id, t.state AS task__state, t.activity_id AS task__activity_id, t.execution_id AS task__execution_id, i.*
         FROM bpmn_tasks t JOIN bpmn_instances i ON i.tenant_id = t.tenant_id AND i.id = t.instance_id
        WHERE t.tenant_id = ? AND t.id = ? FOR UPDATE`,
      [tenantId, taskId],
    );
    const row = (result.rows as Array<Record<string, unknown>>)[0];
    if (!row) return undefined;
    const { task__id: id, task__state: state, task__activity_id: activityId, task__execution_id: executionId, ...instance } = row;
    return { task: { id: id as string, state: state as TaskRow['state'], activity_id: activityId as string, execution_id: executionId as string }, instance: instance as unknown as InstanceRow };
  }

  /** The row, locked for this transaction: the one advance of this instance that may run now. */
  lock(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).forUpdate().first();
  }

  get(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).first();
  }

  async save(tenantId: string, id: string, fields: Partial<Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>>): Promise<void> {
    await this.saveQuery(tenantId, id, fields);
  }

  saveQuery(tenantId: string, id: string, fields: Partial<Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>>): Knex.QueryBuilder {
    const update: Record<string, unknown> = { ...fields };
    if (fields.variables !== undefined) update.variables = JSON.stringify(fields.variables);
    if (fields.waiting !== undefined) update.waiting = JSON.stringify(fields.waiting);
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).update(update);
  }

  list(tenantId: string, filters: { state?: string; process_id?: string; business_key?: string }, after: string | undefined, fetch: number): Promise<InstanceRow[]> {
    const query = this.db('bpmn_instances').select(INSTANCE_LIST_COLUMNS).where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }
}

export interface TaskRow {
  tenant_id: string;
  id: string;
  instance_id: string;
  activity_id: string;
  execution_id: string;
  name: string | null;
  state: 'open' | 'completed' | 'cancelled';
  assignee: string | null;
  variables: Record<string, unknown> | null;
  created_at: Date;
  completed_at: Date | null;
}

export function taskView(row: TaskRow): Record<string, unknown> {
  return {
    id: row.id, tenant_id: row.tenant_id, instance_id: row.instance_id, activity_id: row.activity_id, name: row.name, state: row.state,
    assignee: row.assignee, created_at: iso(row.created_at), completed_at: iso(row.completed_at),
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

export class WaitStore {
  constructor(private readonly db: Db) {}

  /**
   * Makes the rows say what the instance waits for now: open tasks kept by execution (new ones
   * added, vanished ones cancelled), subscriptions and timers replaced.
   */
  async replace(tenantId: string, instanceId: string, previous: readonly Wait[], waits: readonly Wait[], taskId: (executionId: string) => string, now: Date, completed?: { executionId: string; variables: Record<string, unknown> }): Promise<void> {
    const batch = new WriteBatch();
    await this.replaceInto(batch, tenantId, instanceId, previous, waits, taskId, now, completed);
    await batch.run(this.db as Knex.Transaction);
  }

  /**
   * The same, with the inserts and the completed task's update added to `batch` (written with
   * the rest of an advance); what must go before them (deletes, cancellations, rare) runs now.
   */
  async replaceInto(batch: WriteBatch, tenantId: string, instanceId: string, previous: readonly Wait[], waits: readonly Wait[], taskId: (executionId: string) => string, now: Date, completed?: { executionId: string; variables: Record<string, unknown> }): Promise<void> {
    const tasksOf = (list: readonly Wait[]) => list.filter((w): w is Extract<Wait, { kind: 'task' }> => w.kind === 'task');
    const waiting = new Set(tasksOf(waits).map((t) => t.executionId));
    const before = new Set(tasksOf(previous).map((t) => t.executionId));
    let gone = [...before].filter((e) => !waiting.has(e));
    // The task this advance completed is closed as completed (with its variables), the others that vanished as cancelled.
    if (completed && gone.includes(completed.executionId)) {
      batch.add(this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId, execution_id: completed.executionId }).update({ state: 'completed', completed_at: now, variables: JSON.stringify(completed.variables) }));
      gone = gone.filter((e) => e !== completed.executionId);
    }
    if (gone.length > 0) await this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' }).whereIn('execution_id', gone).update({ state: 'cancelled', completed_at: now });
    const added = tasksOf(waits).filter((t) => !before.has(t.executionId));
    if (added.length > 0) {
      batch.add(this.db('bpmn_tasks')
        .insert(added.map((t) => ({ tenant_id: tenantId, id: taskId(t.executionId), instance_id: instanceId, activity_id: t.activityId, execution_id: t.executionId, name: t.name, state: 'open', assignee: null, created_at: t.createdAt ? new Date(t.createdAt) : now })))
        .onConflict(['tenant_id', 'instance_id', 'execution_id']).ignore());
    }
    // Deletes run before the batch: a row deleted and inserted again in one statement would conflict with itself.
    const subscriptionsOf = (list: readonly Wait[]) => list.filter((w): w is Extract<Wait, { kind: 'message' | 'signal' }> => w.kind === 'message' || w.kind === 'signal');
    if (subscriptionsOf(previous).length > 0) await this.db('bpmn_subscriptions').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    const subscriptions = subscriptionsOf(waits);
    if (subscriptions.length > 0) {
      batch.add(this.db('bpmn_subscriptions')
        .insert(subscriptions.map((s) => ({ tenant_id: tenantId, instance_id: instanceId, kind: s.kind, name: s.name, ref: s.ref, correlation_key: s.correlationKey ?? null, activity_id: s.activityId })))
        .onConflict(['tenant_id', 'instance_id', 'kind', 'ref', 'activity_id']).ignore());
    }
    const timersOf = (list: readonly Wait[]) => list.filter((w): w is Extract<Wait, { kind: 'timer' }> => w.kind === 'timer');
    if (timersOf(previous).length > 0) await this.db('bpmn_timers').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    const timers = timersOf(waits);
    if (timers.length > 0) batch.add(this.db('bpmn_timers').insert(timers.map((t) => ({ tenant_id: tenantId, instance_id: instanceId, execution_id: t.executionId, activity_id: t.activityId, due_at: t.dueAt }))));
  }

  async clear(tenantId: string, instanceId: string, now: Date, taskState: 'cancelled'): Promise<void> {
    await this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' }).update({ state: taskState, completed_at: now });
    await this.db('bpmn_subscriptions').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
    await this.db('bpmn_timers').where({ tenant_id: tenantId, instance_id: instanceId }).delete();
  }

  task(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<TaskRow | undefined> {
    const query = this.db('bpmn_tasks').where({ tenant_id: tenantId, id }).first();
    return options.forUpdate ? query.forUpdate() : query;
  }

  tasks(tenantId: string, filters: { state?: string; assignee?: string; instance_id?: string }, after: string | undefined, fetch: number): Promise<TaskRow[]> {
    const query = this.db('bpmn_tasks').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }

  subscribers(tenantId: string, kind: 'message' | 'signal', name: string, correlationKey: string | null | undefined): Promise<SubscriptionRow[]> {
    const query = this.db('bpmn_subscriptions').where({ tenant_id: tenantId, kind, name }).orderBy(['instance_id', 'activity_id']);
    if (correlationKey !== undefined) query.andWhere('correlation_key', correlationKey);
    return query;
  }

  /** Instances with a timer due by the database's clock, oldest first, across tenants (the timer job's view). */
  due(limit: number): Promise<Array<{ tenant_id: string; instance_id: string }>> {
    return this.db('bpmn_timers').distinct('tenant_id', 'instance_id').where('due_at', '<=', this.db.raw('now()')).limit(limit);
  }

  async hasDueTimer(tenantId: string, instanceId: string): Promise<boolean> {
    const row = await this.db('bpmn_timers').where({ tenant_id: tenantId, instance_id: instanceId }).andWhere('due_at', '<=', this.db.raw('now()')).first();
    return Boolean(row);
  }

  async waitsOf(tenantId: string, instanceId: string): Promise<{ tasks: TaskRow[]; subscriptions: SubscriptionRow[]; timers: Array<{ activity_id: string; due_at: Date }> }> {
    // One after another: `db` may be a transaction, whose one connection takes one query at a time.
    const tasks = await this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy('id');
    const subscriptions = await this.db('bpmn_subscriptions').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy('activity_id');
    const timers = await this.db('bpmn_timers').select('activity_id', 'due_at').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy('due_at');
    return { tasks, subscriptions, timers };
  }
}

export interface IncidentRow {
  tenant_id: string;
  id: string;
  instance_id: string;
  activity_id: string | null;
  message: string;
  state: 'open' | 'resolved';
  created_at: Date;
  resolved_at: Date | null;
}

export function incidentView(row: IncidentRow): Record<string, unknown> {
  return { id: row.id, tenant_id: row.tenant_id, instance_id: row.instance_id, activity_id: row.activity_id, message: row.message, state: row.state, created_at: iso(row.created_at), resolved_at: iso(row.resolved_at) };
}

export class HistoryStore {
  constructor(private readonly db: Db) {}

  /** Adds started activities and closes ended ones; a start already recorded keeps its time and variables. */
  async record(tenantId: string, instanceId: string, entries: readonly HistoryEntry[], seqBase: number): Promise<void> {
    const query = this.recordQuery(tenantId, instanceId, entries, seqBase);
    if (query) await query;
  }

  recordQuery(tenantId: string, instanceId: string, entries: readonly HistoryEntry[], seqBase: number): Knex.QueryBuilder | undefined {
    if (entries.length === 0) return undefined;
    const rows = entries.map((e, i) => ({
      tenant_id: tenantId, instance_id: instanceId, execution_id: e.executionId, activity_id: e.activityId, activity_type: e.type, name: e.name, seq: seqBase + i,
      started_at: e.startedAt ?? e.endedAt ?? new Date(), ended_at: e.endedAt ?? null, outcome: e.outcome ?? null, variables: e.variables ? JSON.stringify(e.variables) : null,
    }));
    return this.db('bpmn_history').insert(rows).onConflict(['tenant_id', 'instance_id', 'execution_id']).merge({
      ended_at: this.db.raw('coalesce(excluded.ended_at, bpmn_history.ended_at)'),
      outcome: this.db.raw('coalesce(excluded.outcome, bpmn_history.outcome)'),
    });
  }

  async of(tenantId: string, instanceId: string): Promise<Array<Record<string, unknown>>> {
    const rows = await this.db('bpmn_history').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy(['seq', 'execution_id']);
    return rows.map((r: Record<string, unknown>) => ({ activity_id: r.activity_id, activity_type: r.activity_type, name: r.name, execution_id: r.execution_id, started_at: iso(r.started_at), ended_at: iso(r.ended_at), outcome: r.outcome ?? (r.ended_at ? 'completed' : 'active') }));
  }

  async snapshot(tenantId: string, instanceId: string, revision: number, waiting: string[], variables: Record<string, unknown>, engineState: unknown, now: Date): Promise<void> {
    await this.snapshotQuery(tenantId, instanceId, revision, waiting, variables, engineState, now);
  }

  snapshotQuery(tenantId: string, instanceId: string, revision: number, waiting: string[], variables: Record<string, unknown>, engineState: unknown, now: Date): Knex.QueryBuilder {
    return this.db('bpmn_snapshots').insert({ tenant_id: tenantId, instance_id: instanceId, revision, waiting, variables: JSON.stringify(variables), engine_state: JSON.stringify(engineState), created_at: now });
  }

  async stateAt(tenantId: string, instanceId: string, revision: number): Promise<unknown> {
    const row = await this.db('bpmn_snapshots').select('engine_state').where({ tenant_id: tenantId, instance_id: instanceId, revision }).first();
    return row?.engine_state;
  }

  /** The first saved state in which the instance waited at `activityId`. */
  firstWaitingAt(tenantId: string, instanceId: string, activityId: string): Promise<{ variables: Record<string, unknown>; engine_state: unknown } | undefined> {
    return this.db('bpmn_snapshots').select('variables', 'engine_state').where({ tenant_id: tenantId, instance_id: instanceId }).andWhereRaw('? = any(waiting)', [activityId]).orderBy('revision').first();
  }

  /** Variables as they were when `activityId` first started. */
  async variablesAt(tenantId: string, instanceId: string, activityId: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.db('bpmn_history').select('variables').where({ tenant_id: tenantId, instance_id: instanceId, activity_id: activityId }).orderBy('seq').first();
    return row?.variables ?? undefined;
  }
}

export class IncidentStore {
  constructor(private readonly db: Db) {}

  async insert(row: IncidentRow): Promise<void> {
    await this.insertQuery(row);
  }

  insertQuery(row: IncidentRow): Knex.QueryBuilder {
    return this.db('bpmn_incidents').insert(row);
  }

  get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<IncidentRow | undefined> {
    const query = this.db('bpmn_incidents').where({ tenant_id: tenantId, id }).first();
    return options.forUpdate ? query.forUpdate() : query;
  }

  async resolveOpen(tenantId: string, instanceId: string, now: Date): Promise<void> {
    await this.db('bpmn_incidents').where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' }).update({ state: 'resolved', resolved_at: now });
  }

  list(tenantId: string, filters: { state?: string; instance_id?: string }, after: string | undefined, fetch: number): Promise<IncidentRow[]> {
    const query = this.db('bpmn_incidents').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }
}
