import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** A partition's pending retry: the message at `offset` failed `attempts` times and runs again at `retry_at`. */
export interface RetryRow {
  offset: string | number;
  attempts: number;
  run_id: string;
  revision: number;
  retry_at: Date | string;
}

/** What the worker reads of a workflow before every batch: whether (and what) it should run. */
export interface DeploymentRow {
  state: string;
  deployed_revision: number | null;
  input_stream: string | null;
  last_error: string | null;
}

/**
 * The worker's own reads and writes of the workflows tables (kept apart from WorkflowStore, which
 * serves the API): which workflows run, what a workflow has deployed, and each partition's
 * pending retry. The retry writes run in the batch's transaction, fenced by the partition lease.
 */
export class WorkerStore {
  constructor(private readonly db: Db) {}

  /** Running workflows that read an input stream: their partitions are the worker's keys. */
  async runningInputs(): Promise<Array<{ tenant_id: string; id: string; input_stream: string }>> {
    return (await this.db('workflows_workflows')
      .where({ state: 'running' })
      .whereNotNull('input_stream')
      .select('tenant_id', 'id', 'input_stream')
      .orderBy(['tenant_id', 'id'])) as Array<{ tenant_id: string; id: string; input_stream: string }>;
  }

  async deployment(tenantId: string, workflowId: string): Promise<DeploymentRow | undefined> {
    return (await this.db('workflows_workflows')
      .where({ tenant_id: tenantId, id: workflowId })
      .first('state', 'deployed_revision', 'input_stream', 'last_error')) as DeploymentRow | undefined;
  }

  /** The partition's pending retry; null is a known absence (no retry pending). */
  async retry(tenantId: string, workflowId: string, partition: number): Promise<RetryRow | null> {
    return (
      ((await this.db('workflows_retries')
        .where({ tenant_id: tenantId, workflow_id: workflowId, partition })
        .first()) as RetryRow | undefined) ?? null
    );
  }

  /** Records (or moves) the partition's one pending retry. */
  async setRetry(tenantId: string, workflowId: string, partition: number, retry: RetryRow): Promise<void> {
    await this.db('workflows_retries')
      .insert({ tenant_id: tenantId, workflow_id: workflowId, partition, ...retry })
      .onConflict(['tenant_id', 'workflow_id', 'partition'])
      .merge(['offset', 'attempts', 'run_id', 'revision', 'retry_at']);
  }

  async clearRetry(tenantId: string, workflowId: string, partition: number): Promise<void> {
    await this.db('workflows_retries').where({ tenant_id: tenantId, workflow_id: workflowId, partition }).delete();
  }
}
