import type { Knex } from 'knex';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import { ApiError } from '../../kernel/errors.js';
import type { Definition } from './definition.js';

type Db = Knex | Knex.Transaction;

// Runs have their own store (run-store.ts); they are exported here too, where callers always found them.
export { RunStore, type Run, type RunOutcome } from './run-store.js';

export type WorkflowState = 'draft' | 'running' | 'paused';

/** A workflow as the API shows it: its latest revision's definition, and what is deployed. */
export interface Workflow extends Definition {
  id: string;
  tenant_id: string;
  revision: number;
  deployed_revision: number | null;
  state: WorkflowState;
  /** Set while the worker cannot process it (the error of its last failed attempt); absent otherwise. */
  last_error?: string;
  failed_at?: string;
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
  last_error?: string | null;
  failed_at?: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface Revision {
  revision: number;
  definition: Definition;
  created_by: string | null;
  created_at: string;
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

function view(row: WorkflowRow, definition: Definition): Workflow {
  return {
    ...definition,
    id: row.id,
    tenant_id: row.tenant_id,
    revision: row.revision,
    deployed_revision: row.deployed_revision,
    state: row.state,
    ...(row.last_error && row.failed_at ? { last_error: row.last_error, failed_at: iso(row.failed_at) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Workflows and their revisions, keyed by tenant first. */
export class WorkflowStore {
  constructor(private readonly db: Db) {}

  private async definition(tenantId: string, id: string, revision: number): Promise<Definition> {
    const row = (await this.db('workflows_revisions')
      .where({ tenant_id: tenantId, workflow_id: id, revision })
      .first('definition')) as { definition: Definition };
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
      .join('workflows_revisions as r', (j) =>
        j.on('r.tenant_id', 'w.tenant_id').andOn('r.workflow_id', 'w.id').andOn('r.revision', 'w.revision'),
      )
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
      await this.db('workflows_workflows').insert({
        tenant_id: tenantId,
        id,
        name: definition.name,
        revision: 1,
        deployed_revision: null,
        state: 'draft',
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ApiError('duplicate_identifier', `A workflow with id "${id}" already exists.`);
      throw err;
    }
    await this.db('workflows_revisions').insert({
      tenant_id: tenantId,
      workflow_id: id,
      revision: 1,
      definition: JSON.stringify(definition),
      created_by: by,
      created_at: now,
    });
    return (await this.get(tenantId, id)) as Workflow;
  }

  /** A new immutable revision becomes the latest; the deployed one keeps running until a deploy. */
  async revise(
    tenantId: string,
    current: Workflow,
    definition: Definition,
    by: string | null,
    now: Date,
  ): Promise<Workflow> {
    const revision = current.revision + 1;
    await this.db('workflows_revisions').insert({
      tenant_id: tenantId,
      workflow_id: current.id,
      revision,
      definition: JSON.stringify(definition),
      created_by: by,
      created_at: now,
    });
    await this.db('workflows_workflows')
      .where({ tenant_id: tenantId, id: current.id })
      .update({ name: definition.name, revision, updated_at: now });
    return (await this.get(tenantId, current.id)) as Workflow;
  }

  async setDeployment(
    tenantId: string,
    id: string,
    changes: { deployed_revision?: number; state: WorkflowState; input_stream?: string },
    now: Date,
  ): Promise<Workflow> {
    await this.db('workflows_workflows')
      .where({ tenant_id: tenantId, id })
      .update({ ...changes, updated_at: now });
    return (await this.get(tenantId, id)) as Workflow;
  }

  async remove(tenantId: string, id: string): Promise<void> {
    for (const table of ['workflows_retries', 'workflows_revisions'])
      await this.db(table).where({ tenant_id: tenantId, workflow_id: id }).delete();
    await this.db('workflows_runs').where({ tenant_id: tenantId, workflow_id: id }).delete();
    await this.db('workflows_workflows').where({ tenant_id: tenantId, id }).delete();
  }

  async revisions(tenantId: string, id: string, afterRevision: number | undefined, fetch: number): Promise<Revision[]> {
    const query = this.db('workflows_revisions')
      .where({ tenant_id: tenantId, workflow_id: id })
      .orderBy('revision')
      .limit(fetch);
    if (afterRevision !== undefined) query.andWhere('revision', '>', afterRevision);
    return (
      (await query) as Array<{
        revision: number;
        definition: Definition;
        created_by: string | null;
        created_at: Date | string;
      }>
    ).map((r) => ({
      revision: r.revision,
      definition: r.definition,
      created_by: r.created_by,
      created_at: iso(r.created_at),
    }));
  }

  async revision(tenantId: string, id: string, revision: number): Promise<Definition | undefined> {
    const row = (await this.db('workflows_revisions')
      .where({ tenant_id: tenantId, workflow_id: id, revision })
      .first('definition')) as { definition: Definition } | undefined;
    return row?.definition;
  }

  /** What the worker saw: the error that stops it processing, or null once a batch went through again. */
  async setError(tenantId: string, id: string, error: string | null, at: Date): Promise<void> {
    await this.db('workflows_workflows')
      .where({ tenant_id: tenantId, id })
      .update({ last_error: error, failed_at: error === null ? null : at });
  }

  /** The tenant's deployed workflows (running or paused) with their deployed revision's definition. */
  async deployed(
    tenantId: string,
  ): Promise<Array<{ id: string; input_stream: string | null; definition: Definition }>> {
    return (await this.db('workflows_workflows as w')
      .join('workflows_revisions as r', (j) =>
        j.on('r.tenant_id', 'w.tenant_id').andOn('r.workflow_id', 'w.id').andOn('r.revision', 'w.deployed_revision'),
      )
      .where('w.tenant_id', tenantId)
      .whereNotNull('w.deployed_revision')
      .orderBy('w.id')
      .select('w.id', 'w.input_stream', 'r.definition')) as Array<{
      id: string;
      input_stream: string | null;
      definition: Definition;
    }>;
  }

  /** The tenant's other workflows as stream edges (input → sink streams), for the cycle check. */
  async edges(tenantId: string, exceptId: string): Promise<Array<{ input: string; outputs: string[] }>> {
    const rows = (await this.db('workflows_workflows as w')
      .join('workflows_revisions as r', (j) =>
        j
          .on('r.tenant_id', 'w.tenant_id')
          .andOn('r.workflow_id', 'w.id')
          .andOn('r.revision', this.db.raw('coalesce(w.deployed_revision, w.revision)')),
      )
      .select('r.definition')
      .where('w.tenant_id', tenantId)
      .andWhere('w.id', '<>', exceptId)) as Array<{ definition: Definition }>;
    return rows.flatMap(({ definition: d }) => {
      const input = 'stream' in d.input && d.input.stream ? d.input.stream : undefined;
      if (!input) return [];
      const outputs = d.sinks.flatMap((s) =>
        'type' in s && s.type === 'stream.publish' && typeof s.config?.stream === 'string' ? [s.config.stream] : [],
      );
      if (d.on_error.dead_letter_stream) outputs.push(d.on_error.dead_letter_stream);
      return [{ input, outputs }];
    });
  }
}
