import type { Knex } from 'knex';
import type { RuntimeLog } from '../../../kernel/plugin/api.js';
import type { Clock } from '../../../kernel/types.js';
import type { ComponentLookup } from '../components-directory.js';
import { WorkflowStore } from '../store.js';

const key = (tenantId: string, id: string) => `${tenantId}\u001f${id}`;

/**
 * What the worker tells users when processing breaks at run time (a broker gone, a step that can
 * no longer be built): the workflow's `last_error` and, when the failing step is a component, the
 * component turns `failed` (the `component_failed` signal) — each written to `GET /logs` too.
 * Written on changes only (failing → working and back), not on every attempt.
 */
export class RunHealth {
  /** Workflows known to be failing, with their error. */
  private readonly workflows = new Map<string, string>();
  /** Components this worker marked failed. */
  private readonly components = new Set<string>();

  constructor(private readonly o: { db: Knex; logs: RuntimeLog; clock: Clock; components: ComponentLookup }) {}

  /** What the workflow's row says (after a restart, a failure another instance recorded). */
  seen(tenantId: string, workflowId: string, lastError: string | null | undefined): void {
    if (lastError && !this.workflows.has(key(tenantId, workflowId)))
      this.workflows.set(key(tenantId, workflowId), lastError);
  }

  async workflow(tenantId: string, workflowId: string, error: string | null): Promise<void> {
    const k = key(tenantId, workflowId);
    if ((this.workflows.get(k) ?? null) === error) return;
    if (error === null) this.workflows.delete(k);
    else this.workflows.set(k, error);
    await new WorkflowStore(this.o.db).setError(tenantId, workflowId, error, this.o.clock.now());
    void this.o.logs
      .write({
        tenantId,
        level: error === null ? 'info' : 'error',
        source: 'workflows',
        message: error === null ? 'workflow processing again' : `workflow failing: ${error}`,
        fields: { workflow: workflowId, ...(error === null ? {} : { error }) },
      })
      .catch(() => undefined);
  }

  async component(tenantId: string, workflowId: string, componentId: string, error: string | null): Promise<void> {
    const k = key(tenantId, componentId);
    if (error === null ? !this.components.has(k) : false) return;
    if (error === null) this.components.delete(k);
    else this.components.add(k);
    await this.o.components.observe(this.o.db, tenantId, componentId, error === null ? 'running' : 'failed', error);
    if (error !== null)
      void this.o.logs
        .write({
          tenantId,
          level: 'error',
          source: 'workflows',
          message: `component failed: ${error}`,
          fields: { workflow: workflowId, component: componentId, error },
        })
        .catch(() => undefined);
  }

  /** Components of a batch that went through: any this worker marked failed runs again. */
  async recovered(tenantId: string, workflowId: string, componentIds: readonly string[]): Promise<void> {
    for (const id of componentIds)
      if (this.components.has(key(tenantId, id))) await this.component(tenantId, workflowId, id, null);
  }
}
