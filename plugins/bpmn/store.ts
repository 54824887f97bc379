import type { Knex } from 'knex';
import type { DefinitionMeta } from './definitions.js';
import type { HistoryEntry, Wait } from './engine.js';
import { GUARD, WriteBatch, runWrite, typedValuesList, valuesList, type Write } from './batch.js';

/** All of the plugin's SQL. Every query names the tenant first. */

/** `guarded`: the write tests the batch's guard (see WriteBatch.runGuarded) and does nothing without it. */
const GUARDED = ` where exists (select 1 from ${GUARD})`;

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
    // Every start asks this (the rest of its definition is cached by key), so it is plain SQL, not compiled at every call.
    const result = version !== undefined
      ? await this.db.raw('SELECT key FROM bpmn_definitions WHERE tenant_id = ? AND process_id = ? AND version = ?', [tenantId, processId, version])
      : await this.db.raw('SELECT key FROM bpmn_definitions WHERE tenant_id = ? AND process_id = ? ORDER BY version DESC LIMIT 1', [tenantId, processId]);
    return (result.rows as Array<{ key: string }>)[0];
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
    await runWrite(this.db, this.insertQuery(row));
  }

  insertQuery(row: InstanceRow): Write {
    return {
      sql: `insert into bpmn_instances (${INSTANCE_LIST_COLUMNS.join(', ')}) values ${valuesList(1, INSTANCE_LIST_COLUMNS.length)}`,
      bindings: [row.tenant_id, row.id, row.definition_key, row.process_id, row.version, row.business_key, row.state, JSON.stringify(row.variables), JSON.stringify(row.waiting), row.state_revision, row.revision, row.replay_of, row.replay_from, row.created_at, row.updated_at, row.ended_at],
    };
  }

  /**
   * The task and its instance, both locked for this transaction in one statement (completing a
   * task advances its instance), with only what says whether a kept copy of the instance's row is
   * current (its revision); undefined when the tenant has no such task.
   */
  async lockTask(tenantId: string, taskId: string): Promise<{ task: Pick<TaskRow, 'id' | 'state' | 'activity_id' | 'execution_id'>; instance: Pick<InstanceRow, 'tenant_id' | 'id' | 'state' | 'revision'> } | undefined> {
    const result = await this.db.raw(
      `SELECT t.id, t.state, t.activity_id, t.execution_id, i.id AS instance_id, i.state AS instance_state, i.revision
         FROM bpmn_tasks t JOIN bpmn_instances i ON i.tenant_id = t.tenant_id AND i.id = t.instance_id
        WHERE t.tenant_id = ? AND t.id = ? FOR UPDATE`,
      [tenantId, taskId],
    );
    const row = (result.rows as Array<Record<string, unknown>>)[0];
    if (!row) return undefined;
    return {
      task: { id: row.id as string, state: row.state as TaskRow['state'], activity_id: row.activity_id as string, execution_id: row.execution_id as string },
      instance: { tenant_id: tenantId, id: row.instance_id as string, state: row.instance_state as InstanceRow['state'], revision: Number(row.revision) },
    };
  }

  /** The row, locked for this transaction: the one advance of this instance that may run now. */
  lock(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).forUpdate().first();
  }

  get(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).first();
  }

  async save(tenantId: string, id: string, fields: Partial<Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>>): Promise<void> {
    await runWrite(this.db, this.saveQuery(tenantId, id, fields));
  }

  saveQuery(tenantId: string, id: string, fields: Partial<Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>>): Write {
    const columns: string[] = [];
    const bindings: unknown[] = [];
    for (const [column, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      columns.push(`${column} = ?`);
      bindings.push(column === 'variables' || column === 'waiting' ? JSON.stringify(value) : value);
    }
    return { sql: `update bpmn_instances set ${columns.join(', ')} where tenant_id = ? and id = ?`, bindings: [...bindings, tenantId, id] };
  }

  /**
   * saveQuery as a guard (see WriteBatch.runGuarded): it saves only if the row is still at
   * `revision`, active, and its task `taskId` still open — the row the caller's advance started
   * from. Under a concurrent advance it waits for that one's commit and then finds the row moved on.
   */
  guardQuery(tenantId: string, id: string, revision: number, taskId: string, fields: Parameters<InstanceStore['saveQuery']>[2]): Write {
    const save = this.saveQuery(tenantId, id, fields);
    return {
      sql: `${save.sql} and revision = ? and state = 'active' and exists (select 1 from bpmn_tasks where tenant_id = ? and id = ? and state = 'open') returning 1`,
      bindings: [...save.bindings, revision, tenantId, taskId],
    };
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

const TASK_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'timestamptz'];

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
  async replaceInto(batch: WriteBatch, tenantId: string, instanceId: string, previous: readonly Wait[], waits: readonly Wait[], taskId: (executionId: string) => string, now: Date, completed?: { executionId: string; variables: Record<string, unknown> }, guarded = false): Promise<void> {
    const tasksOf = (list: readonly Wait[]) => list.filter((w): w is Extract<Wait, { kind: 'task' }> => w.kind === 'task');
    const waiting = new Set(tasksOf(waits).map((t) => t.executionId));
    const before = new Set(tasksOf(previous).map((t) => t.executionId));
    let gone = [...before].filter((e) => !waiting.has(e));
    // The task this advance completed is closed as completed (with its variables), the others that vanished as cancelled.
    if (completed && gone.includes(completed.executionId)) {
      batch.add({ sql: `update bpmn_tasks set state = 'completed', completed_at = ?, variables = ? where tenant_id = ? and instance_id = ? and execution_id = ?${guarded ? ` and exists (select 1 from ${GUARD})` : ''}`, bindings: [now, JSON.stringify(completed.variables), tenantId, instanceId, completed.executionId] });
      gone = gone.filter((e) => e !== completed.executionId);
    }
    if (guarded && (gone.length > 0 || waits.some((w) => w.kind !== 'task') || previous.some((w) => w.kind !== 'task'))) throw new Error('Only task waits are written guarded.');
    if (gone.length > 0) await this.db('bpmn_tasks').where({ tenant_id: tenantId, instance_id: instanceId, state: 'open' }).whereIn('execution_id', gone).update({ state: 'cancelled', completed_at: now });
    const added = tasksOf(waits).filter((t) => !before.has(t.executionId));
    if (added.length > 0) {
      batch.add({
        sql: guarded
          ? `insert into bpmn_tasks (tenant_id, id, instance_id, activity_id, execution_id, name, state, created_at) select * from (values ${typedValuesList(added.length, TASK_TYPES)}) v${GUARDED} on conflict (tenant_id, instance_id, execution_id) do nothing`
          : `insert into bpmn_tasks (tenant_id, id, instance_id, activity_id, execution_id, name, state, created_at) values ${valuesList(added.length, 8)} on conflict (tenant_id, instance_id, execution_id) do nothing`,
        bindings: added.flatMap((t) => [tenantId, taskId(t.executionId), instanceId, t.activityId, t.executionId, t.name, 'open', t.createdAt ? new Date(t.createdAt) : now]),
      });
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

/** A snapshot's engine state is stored as JSON text (see migration 002). */
const parseState = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);

const HISTORY_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'timestamptz', 'timestamptz', 'text', 'jsonb'];

export class HistoryStore {
  constructor(private readonly db: Db) {}

  /** Adds started activities and closes ended ones; a start already recorded keeps its time and variables. */
  async record(tenantId: string, instanceId: string, entries: readonly HistoryEntry[], seqBase: number): Promise<void> {
    const write = this.recordQuery(tenantId, instanceId, entries, seqBase);
    if (write) await runWrite(this.db, write);
  }

  recordQuery(tenantId: string, instanceId: string, entries: readonly HistoryEntry[], seqBase: number, guarded = false): Write | undefined {
    if (entries.length === 0) return undefined;
    const columns = 'insert into bpmn_history (tenant_id, instance_id, execution_id, activity_id, activity_type, name, seq, started_at, ended_at, outcome, variables)';
    return {
      sql: (guarded ? `${columns} select * from (values ${typedValuesList(entries.length, HISTORY_TYPES)}) v${GUARDED}` : `${columns} values ${valuesList(entries.length, 11)}`)
        + ' on conflict (tenant_id, instance_id, execution_id) do update set ended_at = coalesce(excluded.ended_at, bpmn_history.ended_at), outcome = coalesce(excluded.outcome, bpmn_history.outcome)',
      bindings: entries.flatMap((e, i) => [
        tenantId, instanceId, e.executionId, e.activityId, e.type, e.name, seqBase + i,
        e.startedAt ?? e.endedAt ?? new Date(), e.endedAt ?? null, e.outcome ?? null, e.variables ? JSON.stringify(e.variables) : null,
      ]),
    };
  }

  async of(tenantId: string, instanceId: string): Promise<Array<Record<string, unknown>>> {
    const rows = await this.db('bpmn_history').where({ tenant_id: tenantId, instance_id: instanceId }).orderBy(['seq', 'execution_id']);
    return rows.map((r: Record<string, unknown>) => ({ activity_id: r.activity_id, activity_type: r.activity_type, name: r.name, execution_id: r.execution_id, started_at: iso(r.started_at), ended_at: iso(r.ended_at), outcome: r.outcome ?? (r.ended_at ? 'completed' : 'active') }));
  }

  async snapshot(tenantId: string, instanceId: string, revision: number, waiting: string[], variables: Record<string, unknown>, engineState: unknown, now: Date): Promise<void> {
    await runWrite(this.db, this.snapshotQuery(tenantId, instanceId, revision, waiting, variables, engineState, now));
  }

  snapshotQuery(tenantId: string, instanceId: string, revision: number, waiting: string[], variables: Record<string, unknown>, engineState: unknown, now: Date, guarded = false): Write {
    return {
      sql: guarded
        ? `insert into bpmn_snapshots (tenant_id, instance_id, revision, waiting, variables, engine_state, created_at) select ?::text, ?::text, ?::integer, ?::text[], ?::jsonb, ?::text, ?::timestamptz from ${GUARD}`
        : 'insert into bpmn_snapshots (tenant_id, instance_id, revision, waiting, variables, engine_state, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      bindings: [tenantId, instanceId, revision, waiting, JSON.stringify(variables), typeof engineState === 'string' ? engineState : JSON.stringify(engineState), now],
    };
  }

  /** The saved state as stored (JSON text), for an engine thread to parse. */
  async stateTextAt(tenantId: string, instanceId: string, revision: number): Promise<unknown> {
    const row = await this.db('bpmn_snapshots').select('engine_state').where({ tenant_id: tenantId, instance_id: instanceId, revision }).first();
    return row?.engine_state;
  }

  async stateAt(tenantId: string, instanceId: string, revision: number): Promise<unknown> {
    const row = await this.db('bpmn_snapshots').select('engine_state').where({ tenant_id: tenantId, instance_id: instanceId, revision }).first();
    return row ? parseState(row.engine_state) : undefined;
  }

  /** The first saved state in which the instance waited at `activityId`. */
  async firstWaitingAt(tenantId: string, instanceId: string, activityId: string): Promise<{ variables: Record<string, unknown>; engine_state: unknown } | undefined> {
    const row = await this.db('bpmn_snapshots').select('variables', 'engine_state').where({ tenant_id: tenantId, instance_id: instanceId }).andWhereRaw('? = any(waiting)', [activityId]).orderBy('revision').first();
    return row ? { variables: row.variables, engine_state: parseState(row.engine_state) } : undefined;
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
