import type { Knex } from 'knex';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import { ApiError } from '../../kernel/errors.js';
import type { Definition } from './definition.js';

type Db = Knex | Knex.Transaction;

export type WorkflowState = 'draft' | 'running' | 'paused';

/** A workflow as the API shows it: its latest revision's definition, and what is deployed. */
export interface Workflow extends Definition {
  id: string;
  tenant_id: string;
  revision: number;
  deployed_revision: number | null;
  state: WorkflowState;
  created_at: string;
  updated_at: string;
}

interface WorkflowRow {
  tenant_id: string;
  id: string;
  name: string;
  revision: number;
  deployed_revision: number | null;
  state: WorkflowState;
  input_stream: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface Revision {
  revision: number;
  definition: Definition;
  created_by: string | null;
  created_at: string;
}

export interface Run {
  id: string;
  workflow: string;
  revision: number;
  message_id: string;
  status: 'pending' | 'processed' | 'failed' | 'dead';
  attempts: number;
  error: string | null;
  outputs: unknown[];
  replay_of: string | null;
  started_at: string;
  updated_at: string;
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

function view(row: WorkflowRow, definition: Definition): Workflow {
  return { ...definition, id: row.id, tenant_id: row.tenant_id, revision: row.revision, deployed_revision: row.deployed_revision, state: row.state, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

/** Workflows and their revisions, keyed by tenant first. */
export class WorkflowStore {
  constructor(private readonly db: Db) {}

  private async definition(tenantId: string, id: string, revision: number): Promise<Definition> {
    const row = (await this.db('workflows_revisions').where({ tenant_id: tenantId, workflow_id: id, revision }).first('definition')) as { definition: Definition };
    return row.definition;
  }

  async row(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WorkflowRow | undefined> {
    const query = this.db('workflows_workflows').where({ tenant_id: tenantId, id }).first();
    if (options.forUpdate) query.forUpdate();
    return (await query) as WorkflowRow | undefined;
  }

  async get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Workflow | undefined> {
    const row = await this.row(tenantId, id, options);
    return row && view(row, await this.definition(tenantId, id, row.revision));
  }

  async list(tenantId: string, afterId: string | undefined, fetch: number, state?: string): Promise<Workflow[]> {
    const query = this.db('workflows_workflows as w')
      .join('workflows_revisions as r', (j) => j.on('r.tenant_id', 'w.tenant_id').andOn('r.workflow_id', 'w.id').andOn('r.revision', 'w.revision'))
      .select('w.*', 'r.definition')
      .where('w.tenant_id', tenantId)
      .orderBy('w.id')
      .limit(fetch);
    if (afterId !== undefined) query.andWhere('w.id', '>', afterId);
    if (state !== undefined) query.andWhere('w.state', state);
    return ((await query) as Array<WorkflowRow & { definition: Definition }>).map((r) => view(r, r.definition));
  }

  async insert(tenantId: string, id: string, definition: Definition, by: string | null, now: Date): Promise<Workflow> {
    try {
      await this.db('workflows_workflows').insert({ tenant_id: tenantId, id, name: definition.name, revision: 1, deployed_revision: null, state: 'draft', created_at: now, updated_at: now });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `A workflow with id "${id}" already exists.`);
      throw err;
    }
    await this.db('workflows_revisions').insert({ tenant_id: tenantId, workflow_id: id, revision: 1, definition: JSON.stringify(definition), created_by: by, created_at: now });
    return (await this.get(tenantId, id)) as Workflow;
  }

  /** A new immutable revision becomes the latest; the deployed one keeps running until a deploy. */
  async revise(tenantId: string, current: Workflow, definition: Definition, by: string | null, now: Date): Promise<Workflow> {
    const revision = current.revision + 1;
    await this.db('workflows_revisions').insert({ tenant_id: tenantId, workflow_id: current.id, revision, definition: JSON.stringify(definition), created_by: by, created_at: now });
    await this.db('workflows_workflows').where({ tenant_id: tenantId, id: current.id }).update({ name: definition.name, revision, updated_at: now });
    return (await this.get(tenantId, current.id)) as Workflow;
  }

  async setDeployment(tenantId: string, id: string, changes: { deployed_revision?: number; state: WorkflowState; input_stream?: string }, now: Date): Promise<Workflow> {
    await this.db('workflows_workflows').where({ tenant_id: tenantId, id }).update({ ...changes, updated_at: now });
    return (await this.get(tenantId, id)) as Workflow;
  }

  async remove(tenantId: string, id: string): Promise<void> {
    for (const table of ['workflows_retries', 'workflows_revisions']) await this.db(table).where({ tenant_id: tenantId, workflow_id: id }).delete();
    await this.db('workflows_runs').where({ tenant_id: tenantId, workflow_id: id }).delete();
    await this.db('workflows_workflows').where({ tenant_id: tenantId, id }).delete();
  }

  async revisions(tenantId: string, id: string, afterRevision: number | undefined, fetch: number): Promise<Revision[]> {
    const query = this.db('workflows_revisions').where({ tenant_id: tenantId, workflow_id: id }).orderBy('revision').limit(fetch);
    if (afterRevision !== undefined) query.andWhere('revision', '>', afterRevision);
    return ((await query) as Array<{ revision: number; definition: Definition; created_by: string | null; created_at: Date | string }>).map((r) => ({ revision: r.revision, definition: r.definition, created_by: r.created_by, created_at: iso(r.created_at) }));
  }

  async revision(tenantId: string, id: string, revision: number): Promise<Definition | undefined> {
    const row = (await this.db('workflows_revisions').where({ tenant_id: tenantId, workflow_id: id, revision }).first('definition')) as { definition: Definition } | undefined;
    return row?.definition;
  }

  /** The tenant's other workflows as stream edges (input → sink streams), for the cycle check. */
  async edges(tenantId: string, exceptId: string): Promise<Array<{ input: string; outputs: string[] }>> {
    const rows = (await this.db('workflows_workflows as w')
      .join('workflows_revisions as r', (j) => j.on('r.tenant_id', 'w.tenant_id').andOn('r.workflow_id', 'w.id').andOn('r.revision', this.db.raw('coalesce(w.deployed_revision, w.revision)')))
      .select('r.definition')
      .where('w.tenant_id', tenantId)
      .andWhere('w.id', '<>', exceptId)) as Array<{ definition: Definition }>;
    return rows.flatMap(({ definition: d }) => {
      const input = 'stream' in d.input && d.input.stream ? d.input.stream : undefined;
      if (!input) return [];
      const outputs = d.sinks.flatMap((s) => ('type' in s && s.type === 'stream.publish' && typeof s.config?.stream === 'string' ? [s.config.stream] : []));
      if (d.on_error.dead_letter_stream) outputs.push(d.on_error.dead_letter_stream);
      return [{ input, outputs }];
    });
  }
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
  return { id: r.id, workflow: r.workflow_id, revision: r.revision, message_id: r.message_id, status: r.status, attempts: r.attempts, error: r.error, outputs: r.outputs, replay_of: r.replay_of, started_at: iso(r.started_at), updated_at: iso(r.updated_at) };
}

/** Runs: one message processed by one revision, with how many attempts it took and how it ended. */
export class RunStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, workflowId: string, status: string | undefined, afterId: string | undefined, fetch: number): Promise<Run[]> {
    const query = this.db('workflows_runs').where({ tenant_id: tenantId, workflow_id: workflowId }).orderBy('id').limit(fetch);
    if (status !== undefined) query.andWhere('status', status);
    if (afterId !== undefined) query.andWhere('id', '>', afterId);
    return ((await query) as RunRow[]).map(runView);
  }

  async get(tenantId: string, workflowId: string, id: string): Promise<Run | undefined> {
    const row = (await this.db('workflows_runs').where({ tenant_id: tenantId, workflow_id: workflowId, id }).first()) as RunRow | undefined;
    return row && runView(row);
  }

  /** Records attempts' outcomes: a run is created by its first attempt and updated by the next ones. */
  async record(tenantId: string, runs: ReadonlyArray<RunOutcome>, now: Date): Promise<void> {
    if (runs.length === 0) return;
    await this.db('workflows_runs')
      .insert(runs.map((run) => ({ tenant_id: tenantId, id: run.id, workflow_id: run.workflow, revision: run.revision, message_id: run.message_id, status: run.status, attempts: 1, error: run.error, outputs: JSON.stringify(run.outputs), replay_of: run.replay_of ?? null, started_at: now, updated_at: now })))
      .onConflict(['tenant_id', 'id'])
      .merge({ status: this.db.raw('excluded.status'), error: this.db.raw('excluded.error'), outputs: this.db.raw('excluded.outputs'), updated_at: now, attempts: this.db.raw('workflows_runs.attempts + 1') });
  }
}

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
