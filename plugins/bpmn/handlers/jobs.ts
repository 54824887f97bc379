import type { Knex } from 'knex';
import { afterKey, operationHandlers, pageOf, RunInTransaction, type CallOf } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import type { JobService } from '../jobs.js';
import type { BpmnService } from '../service.js';
import { JobStore, jobView } from '../store/jobs.js';
import { advancedInstance } from './instances.js';

const trx = (call: Call): Knex.Transaction => call.db as Knex.Transaction;

type CompleteCall = CallOf<Operations['completeBpmnJob']>;

/** The job worker routes: fetch-and-lock, complete, fail, bpmn-error, extend-lock, and the list. */
export function jobHandlers(service: BpmnService, jobs: JobService): Record<string, Handler> {
  return operationHandlers<Operations>({
    async listBpmnJobs(call) {
      const page = pageOf(call);
      const filters: { state?: string; type?: string; instance_id?: string } = {};
      for (const name of ['state', 'type', 'instance_id'] as const) {
        const value = call.query[name];
        if (value !== undefined) filters[name] = value;
      }
      const rows = await new JobStore(call.db).list(call.tenantId, filters, afterKey(page), page.fetch);
      return { status: 200, body: { items: rows.map((row) => jobView(row)) } };
    },

    /** No transaction (manifest: transaction false): a long poll holds no connection while it waits. */
    async fetchAndLockBpmnJobs(call) {
      const body = call.body;
      const fetched = await jobs.fetchAndLock(call.db as Knex, call.tenantId, body);
      call.notes.auditDetail = {
        ...(call.notes.auditDetail ?? {}),
        worker_id: body.worker_id,
        jobs: fetched.map((f) => f.job.id),
      };
      return {
        status: 200,
        body: {
          items: fetched.map(({ job, ...rest }) => jobView(job, rest)),
        },
      };
    },

    completeBpmnJob: Object.assign(
      async (call: CompleteCall) => {
        const body = call.body;
        const variables = service.checkVariables(body.variables);
        call.resourceId = call.params.id;
        if (call.write) {
          // This kernel keeps the job's engine: one guarded statement with the audit record (see JobService.completeKept).
          const kept = await jobs.completeKept(
            call.write,
            call.db,
            call.tenantId,
            call.params.id,
            body.worker_id,
            variables,
          );
          if (!kept) throw new RunInTransaction();
          return { status: 200, body: await advancedInstance(call.db, kept) };
        }
        // Else, or when the job or the instance moved on meanwhile: the job and its instance locked in one statement.
        const row = await jobs.complete(trx(call), call.tenantId, call.params.id, body.worker_id, variables);
        return { status: 200, body: await advancedInstance(call.db, row) };
      },
      {
        /** A worker's answer is the hot path: with the job's engine kept here, no transaction (asked before the handler runs). */
        combinedWrite: (call: CompleteCall) => service.keepsJob(call.tenantId, call.params.id),
      },
    ),

    async failBpmnJob(call) {
      const body = call.body;
      call.resourceId = call.params.id;
      const { job, instance } = await jobs.fail(trx(call), call.tenantId, call.params.id, body.worker_id, body);
      return {
        status: 200,
        body: { ...jobView(job), ...(instance ? { instance: await advancedInstance(call.db, instance) } : {}) },
      };
    },

    async throwBpmnJobError(call) {
      const body = call.body;
      const variables = service.checkVariables(body.variables);
      call.resourceId = call.params.id;
      const row = await jobs.bpmnError(trx(call), call.tenantId, call.params.id, body.worker_id, {
        code: body.error_code,
        ...(body.message !== undefined ? { message: body.message } : {}),
        variables,
      });
      return { status: 200, body: await advancedInstance(call.db, row) };
    },

    async extendBpmnJobLock(call) {
      const body = call.body;
      call.resourceId = call.params.id;
      const job = await jobs.extendLock(
        trx(call),
        call.tenantId,
        call.params.id,
        body.worker_id,
        body.lock_duration_ms,
      );
      return { status: 200, body: jobView(job) };
    },
  });
}
