import { GUARD, runWrite, typedValuesList, valuesList, type Write } from '../batch.js';
import type { HistoryEntry } from '../instance-engine.js';
import { type Db, GUARDED, iso } from './common.js';

/** History (what ran, append-only) and snapshots (the engine state at each advance). */

/** A snapshot's engine state is stored as JSON text (see migration 002). */
const parseState = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);

const HISTORY_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'bigint',
  'timestamptz',
  'timestamptz',
  'text',
  'jsonb',
];

export class HistoryStore {
  constructor(private readonly db: Db) {}

  /** Adds started activities and closes ended ones; a start already recorded keeps its time and variables. */
  async record(tenantId: string, instanceId: string, entries: readonly HistoryEntry[], seqBase: number): Promise<void> {
    const write = this.recordQuery(tenantId, instanceId, entries, seqBase);
    if (write) await runWrite(this.db, write);
  }

  recordQuery(
    tenantId: string,
    instanceId: string,
    entries: readonly HistoryEntry[],
    seqBase: number,
    guarded = false,
  ): Write | undefined {
    if (entries.length === 0) return undefined;
    const columns =
      'insert into bpmn_history (tenant_id, instance_id, execution_id, activity_id, activity_type, name, seq, started_at, ended_at, outcome, variables)';
    return {
      sql:
        (guarded
          ? `${columns} select * from (values ${typedValuesList(entries.length, HISTORY_TYPES)}) v${GUARDED}`
          : `${columns} values ${valuesList(entries.length, 11)}`) +
        ' on conflict (tenant_id, instance_id, execution_id) do update set ended_at = coalesce(excluded.ended_at, bpmn_history.ended_at), outcome = coalesce(excluded.outcome, bpmn_history.outcome)',
      bindings: entries.flatMap((e, i) => [
        tenantId,
        instanceId,
        e.executionId,
        e.activityId,
        e.type,
        e.name,
        seqBase + i,
        e.startedAt ?? e.endedAt ?? new Date(),
        e.endedAt ?? null,
        e.outcome ?? null,
        e.variables ? JSON.stringify(e.variables) : null,
      ]),
    };
  }

  async of(tenantId: string, instanceId: string): Promise<Array<Record<string, unknown>>> {
    const rows = await this.db('bpmn_history')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .orderBy(['seq', 'execution_id']);
    return rows.map((r: Record<string, unknown>) => ({
      activity_id: r.activity_id,
      activity_type: r.activity_type,
      name: r.name,
      execution_id: r.execution_id,
      started_at: iso(r.started_at),
      ended_at: iso(r.ended_at),
      outcome: r.outcome ?? (r.ended_at ? 'completed' : 'active'),
    }));
  }

  async snapshot(
    tenantId: string,
    instanceId: string,
    revision: number,
    waiting: string[],
    variables: Record<string, unknown>,
    engineState: unknown,
    now: Date,
  ): Promise<void> {
    await runWrite(this.db, this.snapshotQuery(tenantId, instanceId, revision, waiting, variables, engineState, now));
  }

  snapshotQuery(
    tenantId: string,
    instanceId: string,
    revision: number,
    waiting: string[],
    variables: Record<string, unknown>,
    engineState: unknown,
    now: Date,
    guarded = false,
  ): Write {
    return {
      sql: guarded
        ? `insert into bpmn_snapshots (tenant_id, instance_id, revision, waiting, variables, engine_state, created_at) select ?::text, ?::text, ?::integer, ?::text[], ?::jsonb, ?::text, ?::timestamptz from ${GUARD}`
        : 'insert into bpmn_snapshots (tenant_id, instance_id, revision, waiting, variables, engine_state, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      bindings: [
        tenantId,
        instanceId,
        revision,
        waiting,
        JSON.stringify(variables),
        typeof engineState === 'string' ? engineState : JSON.stringify(engineState),
        now,
      ],
    };
  }

  /** The saved state as stored (JSON text), for an engine thread to parse. */
  async stateTextAt(tenantId: string, instanceId: string, revision: number): Promise<unknown> {
    const row = await this.db('bpmn_snapshots')
      .select('engine_state')
      .where({ tenant_id: tenantId, instance_id: instanceId, revision })
      .first();
    return row?.engine_state;
  }

  async stateAt(tenantId: string, instanceId: string, revision: number): Promise<unknown> {
    const row = await this.db('bpmn_snapshots')
      .select('engine_state')
      .where({ tenant_id: tenantId, instance_id: instanceId, revision })
      .first();
    return row ? parseState(row.engine_state) : undefined;
  }

  /** The first saved state in which the instance waited at `activityId`. */
  async firstWaitingAt(
    tenantId: string,
    instanceId: string,
    activityId: string,
  ): Promise<{ variables: Record<string, unknown>; engine_state: unknown } | undefined> {
    const row = await this.db('bpmn_snapshots')
      .select('variables', 'engine_state')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .andWhereRaw('? = any(waiting)', [activityId])
      .orderBy('revision')
      .first();
    return row ? { variables: row.variables, engine_state: parseState(row.engine_state) } : undefined;
  }

  /** Variables as they were when `activityId` first started. */
  async variablesAt(
    tenantId: string,
    instanceId: string,
    activityId: string,
  ): Promise<Record<string, unknown> | undefined> {
    const row = await this.db('bpmn_history')
      .select('variables')
      .where({ tenant_id: tenantId, instance_id: instanceId, activity_id: activityId })
      .orderBy('seq')
      .first();
    return row?.variables ?? undefined;
  }
}
