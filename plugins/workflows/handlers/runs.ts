import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { Knex } from 'knex';
import type { Operations } from '../generated/manifest-types.js';
import { RunStore, WorkflowStore } from '../store.js';
import { validateDefinition, type Resolvers } from '../validate.js';
import type { Worker } from '../worker/worker.js';

/** GET /workflows/{id}/runs and POST /workflows/{id}/runs/{run}/replay. */
export function runHandlers(resolvers: Resolvers, worker: Worker): Record<string, Handler> {
  async function workflowOf(call: TenantCall & { params: { id: string } }) {
    const found = await new WorkflowStore(call.db).get(call.tenantId, call.params.id);
    if (!found) throw new ApiError('not_found', `No workflow "${call.params.id}".`);
    return found;
  }

  return operationHandlers<Operations>({
    async listWorkflowRuns(call) {
      const workflow = await workflowOf(call);
      const page = pageOf(call);
      const status = call.query.status;
      return {
        status: 200,
        body: {
          items: await new RunStore(call.db).list(call.tenantId, workflow.id, status, afterKey(page), page.fetch),
        },
      };
    },

    async getWorkflowRun(call) {
      const workflow = await workflowOf(call);
      const run = await new RunStore(call.db).get(call.tenantId, workflow.id, call.params.run);
      if (!run) throw new ApiError('not_found', `Workflow "${workflow.id}" has no run "${call.params.run}".`);
      return { status: 200, body: run };
    },

    async replayWorkflowRun(call) {
      const workflow = await workflowOf(call);
      const original = await new RunStore(call.db).get(call.tenantId, workflow.id, call.params.run);
      if (!original) throw new ApiError('not_found', `Workflow "${workflow.id}" has no run "${call.params.run}".`);
      const revision = call.body.revision ?? workflow.deployed_revision ?? workflow.revision;
      const store = new WorkflowStore(call.db);
      const definition = await store.revision(call.tenantId, workflow.id, revision);
      if (!definition)
        throw new ApiError('not_found', `Workflow "${workflow.id}" has no revision ${revision}.`, {
          details: [{ in: 'body', pointer: '/revision', message: 'names no revision of this workflow' }],
        });
      await validateDefinition(
        call.db,
        resolvers,
        call.tenantId,
        definition,
        await store.edges(call.tenantId, workflow.id),
      );
      if (call.dryRun)
        return {
          status: 201,
          body: {
            id: null,
            workflow: workflow.id,
            revision,
            message_id: original.message_id,
            status: 'pending',
            replay_of: original.id,
          },
        };
      let run;
      try {
        run = await worker.replay(
          call.db as Knex.Transaction,
          call.tenantId,
          workflow.id,
          original,
          revision,
          definition,
        );
      } catch (err) {
        throw new ApiError('conflict', err instanceof Error ? err.message : String(err));
      }
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), replay_of: original.id, run: run.id, revision };
      const created = await new RunStore(call.db).get(call.tenantId, workflow.id, run.id);
      return { status: 201, body: created };
    },
  });
}
