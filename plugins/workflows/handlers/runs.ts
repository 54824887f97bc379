import { ApiError } from '../../../kernel/errors.js';
import { afterKey, pageOf } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { Knex } from 'knex';
import { RunStore, WorkflowStore } from '../store.js';
import { validateDefinition, type Resolvers } from '../validate.js';
import type { Worker } from '../worker/worker.js';

const tenant = (call: Call): string => call.tenantId as string;

/** GET /workflows/{id}/runs and POST /workflows/{id}/runs/{run}/replay. */
export function runHandlers(resolvers: Resolvers, worker: Worker): Record<string, Handler> {
  async function workflowOf(call: Call) {
    const found = await new WorkflowStore(call.db).get(tenant(call), String(call.params.id));
    if (!found) throw new ApiError('not_found', `No workflow "${String(call.params.id)}".`);
    return found;
  }

  return {
    async listWorkflowRuns(call) {
      const workflow = await workflowOf(call);
      const page = pageOf(call);
      const status = typeof call.query.status === 'string' ? call.query.status : undefined;
      return { status: 200, body: { items: await new RunStore(call.db).list(tenant(call), workflow.id, status, afterKey(page), page.fetch) } };
    },

    async getWorkflowRun(call) {
      const workflow = await workflowOf(call);
      const run = await new RunStore(call.db).get(tenant(call), workflow.id, String(call.params.run));
      if (!run) throw new ApiError('not_found', `Workflow "${workflow.id}" has no run "${String(call.params.run)}".`);
      return { status: 200, body: run };
    },

    async replayWorkflowRun(call) {
      const workflow = await workflowOf(call);
      const original = await new RunStore(call.db).get(tenant(call), workflow.id, String(call.params.run));
      if (!original) throw new ApiError('not_found', `Workflow "${workflow.id}" has no run "${String(call.params.run)}".`);
      const revision = (call.body as { revision?: number }).revision ?? workflow.deployed_revision ?? workflow.revision;
      const store = new WorkflowStore(call.db);
      const definition = await store.revision(tenant(call), workflow.id, revision);
      if (!definition) throw new ApiError('not_found', `Workflow "${workflow.id}" has no revision ${revision}.`, { details: [{ in: 'body', pointer: '/revision', message: 'names no revision of this workflow' }] });
      await validateDefinition(call.db, resolvers, tenant(call), definition, await store.edges(tenant(call), workflow.id));
      if (call.dryRun) return { status: 201, body: { id: null, workflow: workflow.id, revision, message_id: original.message_id, status: 'pending', replay_of: original.id } };
      let run;
      try {
        run = await worker.replay(call.db as Knex.Transaction, tenant(call), workflow.id, original, revision, definition);
      } catch (err) {
        throw new ApiError('conflict', err instanceof Error ? err.message : String(err));
      }
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), replay_of: original.id, run: run.id, revision };
      const created = await new RunStore(call.db).get(tenant(call), workflow.id, run.id);
      return { status: 201, body: created };
    },
  };
}
