import type { Knex } from 'knex';
import type { CombinedWrite } from '../../kernel/plugin/api.js';

type Db = Knex | Knex.Transaction;

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

export interface Run {
  id: string;
  workflow: string;
  revision: number;
  message_id: string;
  status: 'pending' | 'processed' | 'filtered' | 'failed' | 'dead';
  attempts: number;
  error: string | null;
  outputs: unknown[];
  replay_of: string | null;
  started_at: string;
  updated_at: string;
}

interface RunRow {
  id: string;
  workflow_id: string;
  revision: number;
  message_id: string;
  status: Run['status'];
  attempts: number;
  error: string | null;
  outputs: unknown[];
  replay_of: string | null;
  started_at: Date | string;
  updated_at: Date | string;
}

function runView(r: RunRow): Run {
  return {
    id: r.id,
    workflow: r.workflow_id,
    revision: r.revision,
    message_id: r.message_id,
    status: r.status,
    attempts: r.attempts,
    error: r.error,
    outputs: r.outputs,
    replay_of: r.replay_of,
    started_at: iso(r.started_at),
    updated_at: iso(r.updated_at),
  };
}

/** Runs: one message processed by one revision, with how many attempts it took and how it ended. */
export class RunStore {
  constructor(private readonly db: Db) {}

  async list(
    tenantId: string,
    workflowId: string,
    status: string | undefined,
    afterId: string | undefined,
    fetch: number,
  ): Promise<Run[]> {
    const query = this.db('workflows_runs')
      .where({ tenant_id: tenantId, workflow_id: workflowId })
      .orderBy('id')
      .limit(fetch);
    if (status !== undefined) query.andWhere('status', status);
    if (afterId !== undefined) query.andWhere('id', '>', afterId);
    return ((await query) as RunRow[]).map(runView);
  }

  async get(tenantId: string, workflowId: string, id: string): Promise<Run | undefined> {
    const row = (await this.db('workflows_runs').where({ tenant_id: tenantId, workflow_id: workflowId, id }).first()) as
      | RunRow
      | undefined;
    return row && runView(row);
  }

  /**
   * Records attempts' outcomes: a run is created by its first attempt and updated by the next
   * ones. The batch's runs go as one JSON parameter: a multi-row VALUES list of a hundred runs
   * had twelve hundred parameters to bind and plan, for each batch of a workflow.
   */
  async record(tenantId: string, runs: ReadonlyArray<RunOutcome>, now: Date): Promise<void> {
    if (runs.length === 0) return;
    await this.db.raw(RECORD_RUNS, recordBindings(tenantId, runs, now));
  }
}

/** `RunStore.record` as a part of a combined write (one statement with the batch's other writes). */
export function recordRunsIn(write: CombinedWrite, tenantId: string, runs: ReadonlyArray<RunOutcome>, now: Date): void {
  if (runs.length > 0) write.add('runs', RECORD_RUNS, recordBindings(tenantId, runs, now));
}

function recordBindings(tenantId: string, runs: ReadonlyArray<RunOutcome>, now: Date): Knex.RawBinding[] {
  const rows = runs.map((run) => ({
    id: run.id,
    workflow_id: run.workflow,
    revision: run.revision,
    message_id: run.message_id,
    status: run.status,
    error: run.error,
    outputs: run.outputs,
    replay_of: run.replay_of ?? null,
  }));
  return [tenantId, now.toISOString(), now.toISOString(), JSON.stringify(rows)];
}

const RECORD_RUNS = `INSERT INTO workflows_runs AS r (tenant_id, id, workflow_id, revision, message_id, status, attempts, error, outputs, replay_of, started_at, updated_at)
  SELECT ?, v.id, v.workflow_id, v.revision, v.message_id, v.status, 1, v.error, v.outputs, v.replay_of, ?::timestamptz, ?::timestamptz
    FROM jsonb_to_recordset(?::jsonb) AS v(id text, workflow_id text, revision integer, message_id text, status text, error text, outputs jsonb, replay_of text)
  ON CONFLICT (tenant_id, id) DO UPDATE
    SET status = excluded.status, error = excluded.error, outputs = excluded.outputs, updated_at = excluded.updated_at, attempts = r.attempts + 1`;

export interface RunOutcome {
  id: string;
  workflow: string;
  revision: number;
  message_id: string;
  status: Run['status'];
  error: string | null;
  outputs: unknown[];
  replay_of?: string | null;
}
