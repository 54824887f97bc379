import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, ifMatch, operationHandlers, pageOf, slugify, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../../kernel/types.js';
import { unsetReferences, variableSource } from '../../variables/contract.js';
import { normalized, type Definition } from '../definition.js';
import { describe, diffValues } from '../diff.js';
import type { Operations } from '../generated/manifest-types.js';
import { WorkflowStore, type Workflow } from '../store.js';
import { streamsOf, validateDefinition, type Resolvers } from '../validate.js';
import { stoppedComponents } from '../worker/held.js';
import type { Worker } from '../worker/worker.js';

/** A call on one workflow (`/workflows/{id}`). */
type WorkflowCall = TenantCall & { params: { id: string } };
const notFound = (id: string): ApiError => new ApiError('not_found', `No workflow "${id}".`);

/** If-Match against the workflow's revision (its ETag, which the kernel sends: manifests/workflows.json). */
const checkIfMatch = (call: Call, workflow: Workflow): void =>
  ifMatch(call, workflow.revision, `Workflow "${workflow.id}"`);

/** The definition part of a workflow (what a revision stores). */
function definitionOf(w: Workflow): Definition {
  const {
    id: _i,
    tenant_id: _t,
    revision: _r,
    deployed_revision: _d,
    state: _s,
    last_error: _e,
    failed_at: _f,
    created_at: _c,
    updated_at: _u,
    ...definition
  } = w;
  return definition;
}

export function workflowHandlers(resolvers: Resolvers, clock: Clock, worker: Worker): Record<string, Handler> {
  async function current(call: WorkflowCall, forUpdate = false): Promise<Workflow> {
    const found = await new WorkflowStore(call.db).get(call.tenantId, call.params.id, { forUpdate });
    if (!found) throw notFound(call.params.id);
    return found;
  }

  async function validated(call: TenantCall, id: string, definition: Definition): Promise<{ input: string }> {
    const others = await new WorkflowStore(call.db).edges(call.tenantId, id);
    return validateDefinition(call.db, resolvers, call.tenantId, definition, others);
  }

  /**
   * A revision is deployed only when every `${var:NAME}` it refers to is set in the tenant (the
   * worker resolves them as it builds the pipeline): otherwise 400 naming each reference.
   */
  async function checkVariables(call: TenantCall, revision: number, definition: Definition): Promise<void> {
    const unset = await unsetReferences(resolvers.extensions.all(variableSource), call.db, call.tenantId, definition);
    if (unset.length === 0) return;
    const names = [...new Set(unset.map((u) => u.name))];
    throw new ApiError(
      'validation_error',
      `Revision ${revision} refers to variable${names.length > 1 ? 's' : ''} ${names.join(', ')}, not set in this tenant (PUT /variables/{name}).`,
      {
        details: unset.map((u) => ({
          in: 'body',
          pointer: '/revision',
          message: `revision ${revision}'s ${u.pointer} refers to \${var:${u.name}}, which this tenant has not set`,
        })),
      },
    );
  }

  /** Why a running workflow processes nothing, when it is held (worker/held.ts). */
  async function waiting(call: TenantCall, w: Workflow): Promise<{ waiting?: Record<string, unknown> }> {
    if (w.state !== 'running' || w.deployed_revision === null) return {};
    const deployed = await new WorkflowStore(call.db).revision(call.tenantId, w.id, w.deployed_revision);
    if (!deployed) return {};
    const stopped = await stoppedComponents(resolvers.components, call.db, call.tenantId, deployed);
    if (stopped.length === 0) return {};
    return {
      waiting: {
        reason: 'components_stopped',
        components: stopped,
        message: `holding its messages until ${stopped.map((c) => `"${c}"`).join(', ')} ${stopped.length === 1 ? 'runs' : 'run'} again (POST /components/{id}/start)`,
      },
    };
  }

  async function revise(call: WorkflowCall, definition: Definition): Promise<{ status: number; body: Workflow }> {
    const existing = await current(call, true);
    checkIfMatch(call, existing);
    await validated(call, existing.id, definition);
    const updated = await new WorkflowStore(call.db).revise(
      call.tenantId,
      existing,
      definition,
      call.principal?.subjectId ?? null,
      clock.now(),
    );
    call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), revision: updated.revision };
    return { status: 200, body: updated };
  }

  async function setState(
    call: WorkflowCall,
    state: 'running' | 'paused',
  ): Promise<{ status: number; body: Workflow }> {
    const existing = await current(call, true);
    if (existing.deployed_revision === null)
      throw new ApiError('conflict', `Workflow "${existing.id}" was never deployed; deploy a revision first.`);
    const updated = await new WorkflowStore(call.db).setDeployment(call.tenantId, existing.id, { state }, clock.now());
    worker.refresh();
    return { status: 200, body: updated };
  }

  return operationHandlers<Operations>({
    async listWorkflows(call) {
      const page = pageOf(call);
      const state = call.query.state;
      return {
        status: 200,
        body: { items: await new WorkflowStore(call.db).list(call.tenantId, afterKey(page), page.fetch, state) },
      };
    },

    async createWorkflow(call) {
      const body = call.body;
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      const { id: _id, ...rest } = body;
      const definition = normalized(rest);
      call.resourceId = id;
      await validated(call, id, definition);
      const created = await new WorkflowStore(call.db).insert(
        call.tenantId,
        id,
        definition,
        call.principal?.subjectId ?? null,
        clock.now(),
      );
      return { status: 201, body: created, headers: { Location: `/workflows/${id}` } };
    },

    async getWorkflow(call) {
      const found = await current(call);
      return { status: 200, body: { ...found, ...(await waiting(call, found)) } };
    },

    async replaceWorkflow(call) {
      return revise(call, normalized(call.body));
    },

    async patchWorkflow(call) {
      const existing = await current(call);
      return revise(call, normalized({ ...definitionOf(existing), ...call.body }));
    },

    async deleteWorkflow(call) {
      const existing = await current(call, true);
      checkIfMatch(call, existing);
      await new WorkflowStore(call.db).remove(call.tenantId, existing.id);
      // Its offsets go too: a workflow re-created under this id reads its input from the start.
      await streamsOf(resolvers.extensions).forgetConsumer(call.db as Knex.Transaction, call.tenantId, existing.id);
      worker.refresh();
      return { status: 204 };
    },

    async listWorkflowRevisions(call) {
      await current(call);
      const page = pageOf(call);
      const after = page.after ? Number(page.after[0]) : undefined;
      return {
        status: 200,
        body: { items: await new WorkflowStore(call.db).revisions(call.tenantId, call.params.id, after, page.fetch) },
      };
    },

    async diffWorkflowRevisions(call) {
      const existing = await current(call);
      const revision = Number(call.params.revision);
      const against = call.query.against ?? revision - 1;
      const store = new WorkflowStore(call.db);
      const to = await store.revision(call.tenantId, existing.id, revision);
      if (!to) throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${revision}.`);
      const from = against >= 1 ? await store.revision(call.tenantId, existing.id, against) : undefined;
      if (!from)
        throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${against} to compare with.`, {
          details: [{ in: 'query', pointer: '/against', message: 'names no revision of this workflow' }],
        });
      const changes = diffValues(from, to);
      return { status: 200, body: { workflow: existing.id, revision, against, changes, text: describe(changes) } };
    },

    async deployWorkflow(call) {
      const existing = await current(call, true);
      const revision = call.body.revision ?? existing.revision;
      const store = new WorkflowStore(call.db);
      const definition = await store.revision(call.tenantId, existing.id, revision);
      if (!definition)
        throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${revision}.`, {
          details: [{ in: 'body', pointer: '/revision', message: 'names no revision of this workflow' }],
        });
      const { input } = await validated(call, existing.id, definition);
      await checkVariables(call, revision, definition);
      const updated = await store.setDeployment(
        call.tenantId,
        existing.id,
        { deployed_revision: revision, state: 'running', input_stream: input },
        clock.now(),
      );
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        revision,
        previous_revision: existing.deployed_revision,
      };
      worker.refresh();
      return { status: 200, body: updated };
    },

    pauseWorkflow: (call) => setState(call, 'paused'),
    resumeWorkflow: (call) => setState(call, 'running'),
  });
}
