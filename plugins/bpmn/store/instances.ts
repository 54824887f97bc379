import { runWrite, valuesList, type Write } from '../batch.js';
import type { Wait } from '../instance-engine.js';
import { type Db, iso } from './common.js';
import type { TaskRow } from './waits.js';

/** Instances (bpmn_instances): their row is the lease an advance locks. */

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
  /** A call activity's child: the instance and execution it answers when it ends. */
  parent_id?: string | null;
  parent_execution_id?: string | null;
}

const INSTANCE_LIST_COLUMNS = [
  'tenant_id',
  'id',
  'definition_key',
  'process_id',
  'version',
  'business_key',
  'state',
  'variables',
  'waiting',
  'state_revision',
  'revision',
  'replay_of',
  'replay_from',
  'created_at',
  'updated_at',
  'ended_at',
  'parent_id',
  'parent_execution_id',
];

export function instanceView(row: InstanceRow): Record<string, unknown> {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    definition_key: row.definition_key,
    process_id: row.process_id,
    version: row.version,
    business_key: row.business_key,
    state: row.state,
    variables: row.variables,
    replay_of: row.replay_of,
    replay_from: row.replay_from,
    parent_id: row.parent_id ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ended_at: iso(row.ended_at),
  };
}

export class InstanceStore {
  constructor(private readonly db: Db) {}

  /** The ids of an instance's children (started by its call activities) in any of `states`, by id. */
  async childrenIn(tenantId: string, parentId: string, states: readonly string[]): Promise<string[]> {
    const rows = (await this.db('bpmn_instances')
      .where({ tenant_id: tenantId, parent_id: parentId })
      .whereIn('state', states)
      .orderBy('id')
      .select('id')) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async insert(row: InstanceRow): Promise<void> {
    await runWrite(this.db, this.insertQuery(row));
  }

  insertQuery(row: InstanceRow): Write {
    return {
      sql: `insert into bpmn_instances (${INSTANCE_LIST_COLUMNS.join(', ')}) values ${valuesList(1, INSTANCE_LIST_COLUMNS.length)}`,
      bindings: [
        row.tenant_id,
        row.id,
        row.definition_key,
        row.process_id,
        row.version,
        row.business_key,
        row.state,
        JSON.stringify(row.variables),
        JSON.stringify(row.waiting),
        row.state_revision,
        row.revision,
        row.replay_of,
        row.replay_from,
        row.created_at,
        row.updated_at,
        row.ended_at,
        row.parent_id ?? null,
        row.parent_execution_id ?? null,
      ],
    };
  }

  /**
   * The task and its instance, both locked for this transaction in one statement (completing a
   * task advances its instance), with only what says whether a kept copy of the instance's row is
   * current (its revision); undefined when the tenant has no such task.
   */
  async lockTask(
    tenantId: string,
    taskId: string,
  ): Promise<
    | {
        task: Pick<TaskRow, 'id' | 'state' | 'activity_id' | 'execution_id'>;
        instance: Pick<InstanceRow, 'tenant_id' | 'id' | 'state' | 'revision'>;
      }
    | undefined
  > {
    const result = await this.db.raw(
      `SELECT t.id, t.state, t.activity_id, t.execution_id, i.id AS instance_id, i.state AS instance_state, i.revision
         FROM bpmn_tasks t JOIN bpmn_instances i ON i.tenant_id = t.tenant_id AND i.id = t.instance_id
        WHERE t.tenant_id = ? AND t.id = ? FOR UPDATE`,
      [tenantId, taskId],
    );
    const row = (result.rows as Array<Record<string, unknown>>)[0];
    if (!row) return undefined;
    return {
      task: {
        id: row.id as string,
        state: row.state as TaskRow['state'],
        activity_id: row.activity_id as string,
        execution_id: row.execution_id as string,
      },
      instance: {
        tenant_id: tenantId,
        id: row.instance_id as string,
        state: row.instance_state as InstanceRow['state'],
        revision: Number(row.revision),
      },
    };
  }

  /** The row, locked for this transaction: the one advance of this instance that may run now. */
  lock(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).forUpdate().first();
  }

  get(tenantId: string, id: string): Promise<InstanceRow | undefined> {
    return this.db('bpmn_instances').where({ tenant_id: tenantId, id }).first();
  }

  /** The instance now runs `definitionKey` (a version of its process). */
  async migrate(
    tenantId: string,
    id: string,
    definitionKey: string,
    version: number,
    revision: number,
    now: Date,
  ): Promise<void> {
    await this.db('bpmn_instances')
      .where({ tenant_id: tenantId, id })
      .update({ definition_key: definitionKey, version, revision, updated_at: now });
  }

  async save(
    tenantId: string,
    id: string,
    fields: Partial<
      Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>
    >,
  ): Promise<void> {
    await runWrite(this.db, this.saveQuery(tenantId, id, fields));
  }

  saveQuery(
    tenantId: string,
    id: string,
    fields: Partial<
      Pick<InstanceRow, 'state' | 'variables' | 'waiting' | 'state_revision' | 'revision' | 'updated_at' | 'ended_at'>
    >,
  ): Write {
    const columns: string[] = [];
    const bindings: unknown[] = [];
    for (const [column, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      columns.push(`${column} = ?`);
      bindings.push(column === 'variables' || column === 'waiting' ? JSON.stringify(value) : value);
    }
    return {
      sql: `update bpmn_instances set ${columns.join(', ')} where tenant_id = ? and id = ?`,
      bindings: [...bindings, tenantId, id],
    };
  }

  /**
   * saveQuery as a guard (see WriteBatch.runGuarded): it saves only if the row is still at
   * `revision`, active, and its task `taskId` still open — the row the caller's advance started
   * from. Under a concurrent advance it waits for that one's commit and then finds the row moved on.
   */
  guardQuery(
    tenantId: string,
    id: string,
    revision: number,
    taskId: string,
    fields: Parameters<InstanceStore['saveQuery']>[2],
  ): Write {
    const save = this.saveQuery(tenantId, id, fields);
    return {
      sql: `${save.sql} and revision = ? and state = 'active' and exists (select 1 from bpmn_tasks where tenant_id = ? and id = ? and state = 'open') returning 1`,
      bindings: [...save.bindings, revision, tenantId, taskId],
    };
  }

  /**
   * saveQuery only while the row is active at `revision` (the one a kept engine ran from), with
   * RETURNING: a combined write's guard (see BpmnService.advanceCombined). Under a concurrent
   * advance it waits for that one's commit and then finds the row moved on.
   */
  saveAtQuery(
    tenantId: string,
    id: string,
    revision: number,
    fields: Parameters<InstanceStore['saveQuery']>[2],
  ): Write {
    const save = this.saveQuery(tenantId, id, fields);
    return {
      sql: `${save.sql} and revision = ? and state = 'active' returning 1`,
      bindings: [...save.bindings, revision],
    };
  }

  list(
    tenantId: string,
    filters: { state?: string; process_id?: string; business_key?: string },
    after: string | undefined,
    fetch: number,
  ): Promise<InstanceRow[]> {
    const query = this.db('bpmn_instances')
      .select(INSTANCE_LIST_COLUMNS)
      .where({ tenant_id: tenantId })
      .orderBy('id')
      .limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }
}
