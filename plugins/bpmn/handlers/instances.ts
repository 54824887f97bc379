import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf, type CallOf } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import type { PreparedAdvance } from '../advance-types.js';
import type { BpmnService } from '../service.js';
import { cancelTree } from '../cancel.js';
import { jobIdOf, taskIdOf } from '../ids.js';
import { JobStore } from '../store/jobs.js';
import {
  DefinitionStore,
  HistoryStore,
  IncidentStore,
  InstanceStore,
  WaitStore,
  incidentView,
  instanceView,
  taskView,
  type DefinitionRow,
  type InstanceRow,
} from '../store.js';

const trx = (call: Call): Knex.Transaction => call.db as Knex.Transaction;

type StartCall = CallOf<Operations['startBpmnInstance']>;

/** An instance with where it waits, its tasks, history and incidents. */
export async function fullInstance(db: Knex | Knex.Transaction, row: InstanceRow): Promise<Record<string, unknown>> {
  const waits = await new WaitStore(db).waitsOf(row.tenant_id, row.id);
  const jobs = (await new JobStore(db).list(row.tenant_id, { instance_id: row.id }, undefined, 1000)).filter(
    (j) => j.state === 'open' || j.state === 'failed',
  );
  const activities = [
    ...waits.tasks
      .filter((t) => t.state === 'open')
      .map((t) => ({ activity_id: t.activity_id, kind: 'user_task', task_id: t.id })),
    ...waits.subscriptions.map((s) => ({
      activity_id: s.activity_id,
      kind: s.kind,
      name: s.name,
      correlation_key: s.correlation_key,
    })),
    ...jobs.map((j) => ({ activity_id: j.activity_id, kind: 'job', type: j.type, job_id: j.id, state: j.state })),
    ...row.waiting.flatMap((w) =>
      w.kind === 'call' ? [{ activity_id: w.activityId, kind: 'call', process_id: w.processId }] : [],
    ),
    ...waits.timers.map((t) => ({
      activity_id: t.activity_id,
      kind: 'timer',
      due_at: new Date(t.due_at).toISOString(),
    })),
  ];
  const history = await new HistoryStore(db).of(row.tenant_id, row.id);
  const incidents = await new IncidentStore(db).list(row.tenant_id, { instance_id: row.id }, undefined, 1000);
  return {
    ...instanceView(row),
    activities,
    tasks: waits.tasks.map(taskView),
    history,
    incidents: incidents.map(incidentView),
  };
}

/**
 * The answer of a call that advanced an instance: where it waits (from the row), its open tasks
 * and, when it stopped on one, its open incidents. GET /bpmn/instances/{id} adds the history.
 */
export async function advancedInstance(
  db: Knex | Knex.Transaction,
  row: InstanceRow,
): Promise<Record<string, unknown>> {
  const activities = row.waiting.map((w) => {
    if (w.kind === 'task')
      return { activity_id: w.activityId, kind: 'user_task', task_id: taskIdOf(row.id, w.executionId) };
    if (w.kind === 'timer')
      return { activity_id: w.activityId, kind: 'timer', due_at: new Date(w.dueAt).toISOString() };
    if (w.kind === 'job')
      return { activity_id: w.activityId, kind: 'job', type: w.type, job_id: jobIdOf(row.id, w.executionId) };
    if (w.kind === 'call') return { activity_id: w.activityId, kind: 'call', process_id: w.processId };
    return { activity_id: w.activityId, kind: w.kind, name: w.name, correlation_key: w.correlationKey ?? null };
  });
  const tasks = row.waiting.flatMap((w) =>
    w.kind === 'task'
      ? [
          {
            id: taskIdOf(row.id, w.executionId),
            tenant_id: row.tenant_id,
            instance_id: row.id,
            activity_id: w.activityId,
            name: w.name,
            state: 'open',
            assignee: null,
            created_at: w.createdAt ?? null,
            completed_at: null,
          },
        ]
      : [],
  );
  const incidents =
    row.state === 'incident'
      ? await new IncidentStore(db).list(row.tenant_id, { instance_id: row.id, state: 'open' }, undefined, 1000)
      : [];
  return { ...instanceView(row), activities, tasks, incidents: incidents.map(incidentView) };
}

/** POST/GET /bpmn/instances, GET /bpmn/instances/{id}, cancel, replay. */
export function instanceHandlers(service: BpmnService): Record<string, Handler> {
  /** Starts whose first advance an engine thread ran before the transaction (see PreparedAdvance). */
  const preparedStarts = new WeakMap<StartCall, { definition: DefinitionRow; prepared: PreparedAdvance }>();

  /** The definition a start names (by key, or by process id and version: the latest by default). */
  async function definitionOf(call: StartCall): Promise<DefinitionRow> {
    const body = call.body;
    // The manifest asks for exactly one of key and process_id.
    const key =
      body.key ??
      (body.process_id !== undefined
        ? (await new DefinitionStore(call.db).keyOf(call.tenantId, body.process_id, body.version))?.key
        : undefined);
    const definition =
      key !== undefined
        ? await service.definition(call.db, call.tenantId, key).catch((err: unknown) => {
            if (err instanceof ApiError && err.code === 'not_found') return undefined;
            throw err;
          })
        : undefined;
    if (!definition)
      throw new ApiError(
        'not_found',
        body.key !== undefined
          ? `No definition "${body.key}".`
          : `No process "${body.process_id}"${body.version !== undefined ? ` version ${body.version}` : ''}.`,
      );
    if (body.key !== undefined && body.version !== undefined && body.version !== definition.version)
      throw new ApiError(
        'not_found',
        `Definition "${body.key}" is version ${definition.version}, not ${body.version}.`,
      );
    return definition;
  }

  return operationHandlers<Operations>({
    startBpmnInstance: Object.assign(
      async (call: StartCall) => {
        const body = call.body;
        const variables = service.checkVariables(body.variables);
        // Found before the transaction when an engine thread ran the first advance there.
        const ahead = preparedStarts.get(call);
        const definition = ahead?.definition ?? (await definitionOf(call));
        const row = await service.start(trx(call), call.tenantId, definition, {
          variables,
          businessKey: body.business_key ?? null,
          prepared: ahead?.prepared,
        });
        call.resourceId = row.id;
        return {
          status: 201,
          body: await advancedInstance(call.db, row),
          headers: { Location: `/bpmn/instances/${row.id}` },
        };
      },
      {
        /**
         * A threadable definition's first advance runs here, in its engine thread, while no
         * connection is held. Not with a request_id (a repeated one answers the first start's
         * instance, and its engine run would be wasted); bad input is left to the handler to refuse.
         */
        async beforeTransaction(call: StartCall) {
          const body = call.body;
          if (body.request_id !== undefined) return;
          try {
            const definition = await definitionOf(call);
            const prepared = await service.prepareStart(call.db, call.tenantId, definition, {
              variables: service.checkVariables(body.variables),
              businessKey: body.business_key ?? null,
            });
            if (prepared) preparedStarts.set(call, { definition, prepared });
          } catch {
            // The handler runs it again and answers the error.
          }
        },
      },
    ),

    async listBpmnInstances(call) {
      const page = pageOf(call);
      const filters: { state?: string; process_id?: string; business_key?: string } = {};
      for (const name of ['state', 'process_id', 'business_key'] as const) {
        const value = call.query[name];
        if (value !== undefined) filters[name] = value;
      }
      const rows = await new InstanceStore(call.db).list(call.tenantId, filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map(instanceView) } };
    },

    async getBpmnInstance(call) {
      const row = await new InstanceStore(call.db).get(call.tenantId, call.params.id);
      if (!row) throw new ApiError('not_found', `No instance "${call.params.id}".`);
      return { status: 200, body: await fullInstance(call.db, row) };
    },

    async cancelBpmnInstance(call) {
      const row = await service.lockInstance(trx(call), call.tenantId, call.params.id);
      return { status: 200, body: await fullInstance(call.db, await cancelTree(service, trx(call), row)) };
    },

    async setBpmnInstanceVariables(call) {
      const variables = service.checkVariables(call.body.variables);
      const row = await service.lockInstance(trx(call), call.tenantId, call.params.id);
      if (row.state !== 'active')
        throw new ApiError(
          'conflict',
          `Instance ${row.id} is ${row.state}; ${row.state === 'incident' ? 'resolve its incident with variables instead' : 'its variables no longer change'}.`,
        );
      call.resourceId = row.id;
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), names: Object.keys(variables) };
      // The engine's own copy changes too (a resume from the saved state, with the variables merged): its conditions read that one.
      if (row.state_revision === null) throw new ApiError('conflict', `Instance ${row.id} has not reached a wait yet.`);
      const saved = await service.advance(trx(call), row, { kind: 'resume', variables });
      return { status: 200, body: await advancedInstance(call.db, saved) };
    },

    /**
     * Moves an active instance to another version of its process: allowed when every element it
     * waits at exists in that version; its saved state then resumes against that version's model.
     */
    async migrateBpmnInstance(call) {
      const body = call.body;
      const row = await service.lockInstance(trx(call), call.tenantId, call.params.id);
      if (row.state !== 'active' && row.state !== 'incident')
        throw new ApiError('conflict', `Instance ${row.id} is ${row.state}; only a running instance migrates.`);
      const key =
        body.key ?? (await new DefinitionStore(call.db).keyOf(call.tenantId, row.process_id, body.version))?.key;
      const target = key ? await service.definition(call.db, call.tenantId, key).catch(() => undefined) : undefined;
      if (!target || target.process_id !== row.process_id)
        throw new ApiError(
          'not_found',
          `No version ${body.version ?? body.key ?? '(latest)'} of process "${row.process_id}".`,
        );
      service.checkExecutable(target);
      const missing = [...new Set(row.waiting.map((w) => w.activityId))].filter(
        (id) => !target.meta.activities.includes(id),
      );
      if (missing.length > 0)
        throw new ApiError(
          'conflict',
          `Version ${target.version} of "${row.process_id}" has no ${missing.map((m) => `"${m}"`).join(', ')}, where instance ${row.id} waits; it cannot migrate there.`,
          { details: missing.map((id) => ({ in: 'body', pointer: '/version', message: `no activity ${id}` })) },
        );
      call.resourceId = row.id;
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        from_version: row.version,
        to_version: target.version,
      };
      const now = service.clock.now();
      const migrated = {
        ...row,
        definition_key: target.key,
        version: target.version,
        revision: row.revision + 1,
        updated_at: now,
      };
      await new InstanceStore(call.db).migrate(
        row.tenant_id,
        row.id,
        target.key,
        target.version,
        migrated.revision,
        now,
      );
      service.forget(row.id);
      service.log(row.tenant_id, 'info', `Instance ${row.id} migrated from v${row.version} to v${target.version}.`, {
        instance: row.id,
      });
      return { status: 200, body: await fullInstance(call.db, migrated) };
    },

    async replayBpmnInstance(call) {
      const original = await new InstanceStore(call.db).get(call.tenantId, call.params.id);
      if (!original) throw new ApiError('not_found', `No instance "${call.params.id}".`);
      const definition = await service.definition(call.db, original.tenant_id, original.definition_key);
      const from = call.body.from_activity;
      const history = new HistoryStore(call.db);
      let row: InstanceRow;
      if (from === undefined) {
        const first = await history.variablesAt(
          original.tenant_id,
          original.id,
          ((await history.of(original.tenant_id, original.id))[0]?.activity_id as string) ?? '',
        );
        row = await service.start(trx(call), original.tenant_id, definition, {
          variables: first ?? {},
          businessKey: original.business_key,
          replayOf: original.id,
        });
      } else {
        const detail = {
          details: [{ in: 'body', pointer: '/from_activity', message: 'names no activity this instance waited at' }],
        };
        if (!definition.meta.activities.includes(from))
          throw new ApiError('validation_error', `Process ${definition.process_id} has no activity "${from}".`, detail);
        const snapshot = await history.firstWaitingAt(original.tenant_id, original.id, from);
        if (!snapshot)
          throw new ApiError(
            'validation_error',
            `Instance ${original.id} never waited at "${from}"; a replay starts at the start or at an activity the instance waited at.`,
            detail,
          );
        row = await service.start(trx(call), original.tenant_id, definition, {
          variables: snapshot.variables,
          businessKey: original.business_key,
          replayOf: original.id,
          replayFrom: from,
          engineState: snapshot.engine_state,
        });
      }
      call.resourceId = original.id;
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), new_instance: row.id };
      return {
        status: 201,
        body: await fullInstance(call.db, row),
        headers: { Location: `/bpmn/instances/${row.id}` },
      };
    },
  });
}
