import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, pageOf, slugify } from '../../../kernel/plugin/api.js';
import type { Call, Clock, Handler } from '../../../kernel/types.js';
import { normalized, type Definition } from '../definition.js';
import { describe, diffValues } from '../diff.js';
import { WorkflowStore, type Workflow } from '../store.js';
import { streamsOf, validateDefinition, type Resolvers } from '../validate.js';
import type { Worker } from '../worker/worker.js';

const tenant = (call: Call): string => call.tenantId as string;
const idParam = (call: Call): string => String(call.params.id);
const etag = (w: { revision: number }): string => `"${w.revision}"`;
const notFound = (id: string): ApiError => new ApiError('not_found', `No workflow "${id}".`);

/** If-Match (RFC 9110): `*` or a list of strong tags; absent means "whatever is current". */
function checkIfMatch(call: Call, workflow: Workflow): void {
  const header = call.headers['if-match'];
  if (header === undefined || header.trim() === '') return;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(etag(workflow))) return;
  throw new ApiError('precondition_failed', `Workflow "${workflow.id}" is at revision ${workflow.revision} (ETag ${etag(workflow)}), not ${header}; read it again and retry.`, {
    details: [{ in: 'headers', pointer: '/if-match', message: `does not match the current ETag ${etag(workflow)}` }],
  });
}

/** The definition part of a workflow (what a revision stores). */
function definitionOf(w: Workflow): Definition {
  const { id: _i, tenant_id: _t, revision: _r, deployed_revision: _d, state: _s, created_at: _c, updated_at: _u, ...definition } = w;
  return definition;
}

export function workflowHandlers(resolvers: Resolvers, clock: Clock, worker: Worker): Record<string, Handler> {
  async function current(call: Call, forUpdate = false): Promise<Workflow> {
    const found = await new WorkflowStore(call.db).get(tenant(call), idParam(call), { forUpdate });
    if (!found) throw notFound(idParam(call));
    return found;
  }

  async function validated(call: Call, id: string, definition: Definition): Promise<{ input: string }> {
    const others = await new WorkflowStore(call.db).edges(tenant(call), id);
    return validateDefinition(call.db, resolvers, tenant(call), definition, others);
  }

  async function revise(call: Call, definition: Definition): Promise<{ status: number; body: Workflow; headers: Record<string, string> }> {
    const existing = await current(call, true);
    checkIfMatch(call, existing);
    await validated(call, existing.id, definition);
    const updated = await new WorkflowStore(call.db).revise(tenant(call), existing, definition, call.principal?.subjectId ?? null, clock.now());
    call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), revision: updated.revision };
    return { status: 200, body: updated, headers: { ETag: etag(updated) } };
  }

  async function setState(call: Call, state: 'running' | 'paused'): Promise<{ status: number; body: Workflow; headers: Record<string, string> }> {
    const existing = await current(call, true);
    if (existing.deployed_revision === null) throw new ApiError('conflict', `Workflow "${existing.id}" was never deployed; deploy a revision first.`);
    const updated = await new WorkflowStore(call.db).setDeployment(tenant(call), existing.id, { state }, clock.now());
    worker.refresh();
    return { status: 200, body: updated, headers: { ETag: etag(updated) } };
  }

  return {
    async listWorkflows(call) {
      const page = pageOf(call);
      const state = typeof call.query.state === 'string' ? call.query.state : undefined;
      return { status: 200, body: { items: await new WorkflowStore(call.db).list(tenant(call), afterKey(page), page.fetch, state) } };
    },

    async createWorkflow(call) {
      const body = call.body as Definition & { id?: string };
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      const { id: _id, ...rest } = body;
      const definition = normalized(rest);
      call.resourceId = id;
      await validated(call, id, definition);
      const created = await new WorkflowStore(call.db).insert(tenant(call), id, definition, call.principal?.subjectId ?? null, clock.now());
      return { status: 201, body: created, headers: { Location: `/workflows/${id}`, ETag: etag(created) } };
    },

    async getWorkflow(call) {
      const found = await current(call);
      return { status: 200, body: found, headers: { ETag: etag(found) } };
    },

    async replaceWorkflow(call) {
      return revise(call, normalized(call.body as Definition));
    },

    async patchWorkflow(call) {
      const existing = await current(call);
      return revise(call, normalized({ ...definitionOf(existing), ...(call.body as Partial<Definition>) }));
    },

    async deleteWorkflow(call) {
      const existing = await current(call, true);
      checkIfMatch(call, existing);
      await new WorkflowStore(call.db).remove(tenant(call), existing.id);
      // Its offsets go too: a workflow re-created under this id reads its input from the start.
      await streamsOf(resolvers.extensions).forgetConsumer(call.db as Knex.Transaction, tenant(call), existing.id);
      worker.refresh();
      return { status: 204 };
    },

    async listWorkflowRevisions(call) {
      await current(call);
      const page = pageOf(call);
      const after = page.after ? Number(page.after[0]) : undefined;
      return { status: 200, body: { items: await new WorkflowStore(call.db).revisions(tenant(call), idParam(call), after, page.fetch) } };
    },

    async diffWorkflowRevisions(call) {
      const existing = await current(call);
      const revision = Number(call.params.revision);
      const against = typeof call.query.against === 'number' ? call.query.against : revision - 1;
      const store = new WorkflowStore(call.db);
      const to = await store.revision(tenant(call), existing.id, revision);
      if (!to) throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${revision}.`);
      const from = against >= 1 ? await store.revision(tenant(call), existing.id, against) : undefined;
      if (!from) throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${against} to compare with.`, { details: [{ in: 'query', pointer: '/against', message: 'names no revision of this workflow' }] });
      const changes = diffValues(from, to);
      return { status: 200, body: { workflow: existing.id, revision, against, changes, text: describe(changes) } };
    },

    async deployWorkflow(call) {
      const existing = await current(call, true);
      const revision = (call.body as { revision?: number }).revision ?? existing.revision;
      const store = new WorkflowStore(call.db);
      const definition = await store.revision(tenant(call), existing.id, revision);
      if (!definition) throw new ApiError('not_found', `Workflow "${existing.id}" has no revision ${revision}.`, { details: [{ in: 'body', pointer: '/revision', message: 'names no revision of this workflow' }] });
      const { input } = await validated(call, existing.id, definition);
      const updated = await store.setDeployment(tenant(call), existing.id, { deployed_revision: revision, state: 'running', input_stream: input }, clock.now());
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), revision, previous_revision: existing.deployed_revision };
      worker.refresh();
      return { status: 200, body: updated, headers: { ETag: etag(updated) } };
    },

    pauseWorkflow: (call) => setState(call, 'paused'),
    resumeWorkflow: (call) => setState(call, 'running'),
  };
}
