import { once } from 'node:events';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import { newId } from './ids.js';
import type { BpmnService } from './service.js';
import { IncidentStore, InstanceStore, type InstanceRow } from './store.js';
import { type ClaimedJob, JobStore, type JobRow } from './store/jobs.js';

/**
 * The job worker protocol (Camunda external tasks, Zeebe job workers): workers fetch and lock
 * jobs by type, then complete them, fail them (retries, backoff; none left: an incident) or
 * throw a BPMN error. A lock is a worker id and an expiry on the job's row, taken with
 * `for update skip locked` and checked under the row lock by the database's clock, so exactly one
 * worker holds a job at a time whichever kernel each one talks to; an expired lock frees the job
 * for the next fetch, and the first holder's late answer is refused.
 */

export interface FetchRequest {
  worker_id: string;
  types: string[];
  max_jobs?: number;
  lock_duration_ms?: number;
  wait_ms?: number;
}

/** A locked job as an answer may use it: it exists (else 404), is open and is held by `workerId` (else 409). */
function heldJob(found: { job: JobRow; held: boolean } | undefined, id: string, workerId: string): JobRow {
  if (!found) throw new ApiError('not_found', `No job "${id}".`);
  const { job, held } = found;
  if (job.state !== 'open') throw new ApiError('conflict', `Job ${id} is ${job.state}.`);
  if (!held)
    throw new ApiError(
      'conflict',
      `Job ${id} is not locked by worker "${workerId}" (never fetched by it, its lock expired, or another worker holds it now).`,
    );
  return job;
}

/** How often a long poll looks again for jobs another kernel created (this kernel's own wake it at once). */
const POLL_MS = 200;

export class JobService {
  constructor(private readonly service: BpmnService) {
    service.jobsCreated.setMaxListeners(0);
  }

  /** Locks due jobs of the types for the worker; with wait_ms, waits up to that long for one to come. */
  async fetchAndLock(db: Knex, tenantId: string, request: FetchRequest): Promise<ClaimedJob[]> {
    const deadline = Date.now() + (request.wait_ms ?? 0);
    const store = new JobStore(db);
    for (;;) {
      const claimed = await store.claim(
        tenantId,
        request.types,
        request.worker_id,
        request.max_jobs ?? 1,
        request.lock_duration_ms ?? 60_000,
      );
      if (claimed.length > 0) return claimed;
      const left = deadline - Date.now();
      if (left <= 0) return [];
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Math.min(left, POLL_MS));
      try {
        // Woken by this kernel's new jobs (any tenant: a look costs one query), else by the poll.
        await once(this.service.jobsCreated, 'created', { signal: controller.signal });
      } catch {
        // The poll interval passed.
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** The job, locked for this transaction, open and locked by `workerId` (else 404 / 409). */
  async held(trx: Knex.Transaction, tenantId: string, id: string, workerId: string): Promise<JobRow> {
    return heldJob(await new JobStore(trx).lockHeld(tenantId, id, workerId), id, workerId);
  }

  private async activeInstance(trx: Knex.Transaction, job: JobRow): Promise<InstanceRow> {
    const row = await this.service.lockInstance(trx, job.tenant_id, job.instance_id);
    if (row.state !== 'active')
      throw new ApiError('conflict', `Instance ${row.id} is ${row.state}; its jobs cannot be answered now.`);
    return row;
  }

  /**
   * held and activeInstance in one statement: the job and its instance locked together, the
   * instance's row taken from this kernel's kept engine when it is still the row's revision (a
   * worker's answer is the hot path: no second lookup, no variables read back).
   */
  private async answerable(
    trx: Knex.Transaction,
    tenantId: string,
    id: string,
    workerId: string,
  ): Promise<{ job: JobRow; row: InstanceRow }> {
    const found = await new JobStore(trx).lockHeldWithInstance(tenantId, id, workerId);
    const job = heldJob(found, id, workerId);
    const { state, revision } = found!.instance;
    if (state !== 'active')
      throw new ApiError('conflict', `Instance ${job.instance_id} is ${state}; its jobs cannot be answered now.`);
    const row =
      this.service.keptRow(tenantId, job.instance_id, revision) ??
      (await new InstanceStore(trx).get(tenantId, job.instance_id));
    if (!row) throw new ApiError('not_found', `No instance "${job.instance_id}".`);
    return { job, row };
  }

  /**
   * complete with this kernel's kept engine (BpmnService.keptJob), its writes parts of the call's
   * combined write: one statement with the audit record, no BEGIN, no lock, no COMMIT. Its guards
   * close the job only while it is open and `workerId` holds an unexpired lock (the database's
   * clock, as in a transaction), and save the instance only at the revision the engine ran from;
   * when either finds nothing, nothing commits and the call runs again in a transaction, which
   * answers the same 404 or 409, or completes the job from the saved state. Undefined when there
   * is no such engine, or the advance needs a transaction: the caller then asks for one.
   */
  async completeKept(
    write: CombinedWrite,
    db: Knex | Knex.Transaction,
    tenantId: string,
    id: string,
    workerId: string,
    variables: Record<string, unknown>,
  ): Promise<InstanceRow | undefined> {
    const kept = await this.service.keptJob(db, tenantId, id);
    if (!kept) return undefined;
    return this.service.advanceCombined(
      { db, write, closeJob: (now) => new JobStore(db).closeHeldQuery(tenantId, id, workerId, now) },
      kept.row,
      { kind: 'job', executionId: kept.executionId, outcome: 'complete', variables },
      { completedJob: kept.executionId },
    );
  }

  async complete(
    trx: Knex.Transaction,
    tenantId: string,
    id: string,
    workerId: string,
    variables: Record<string, unknown>,
  ): Promise<InstanceRow> {
    const { job, row } = await this.answerable(trx, tenantId, id, workerId);
    return this.service.advance(
      trx,
      row,
      { kind: 'job', executionId: job.execution_id, outcome: 'complete', variables },
      { completedJob: job.execution_id },
    );
  }

  /** A BPMN error from the worker: caught by the task's error boundary event, else an incident. */
  async bpmnError(
    trx: Knex.Transaction,
    tenantId: string,
    id: string,
    workerId: string,
    error: { code: string; message?: string; variables: Record<string, unknown> },
  ): Promise<InstanceRow> {
    const { job, row } = await this.answerable(trx, tenantId, id, workerId);
    const definition = await this.service.definition(trx, tenantId, row.definition_key);
    if (!definition.meta.error_caught.includes(job.activity_id))
      return this.incident(
        trx,
        row,
        job,
        `Unhandled BPMN error "${error.code}"${error.message ? `: ${error.message}` : ''} (no error boundary event on ${job.activity_id}).`,
      );
    return this.service.advance(
      trx,
      row,
      {
        kind: 'job',
        executionId: job.execution_id,
        outcome: 'error',
        errorCode: error.code,
        ...(error.message !== undefined ? { errorMessage: error.message } : {}),
        variables: error.variables,
      },
      { completedJob: job.execution_id },
    );
  }

  /** A failure: retried after the backoff while retries are left, else an incident. */
  async fail(
    trx: Knex.Transaction,
    tenantId: string,
    id: string,
    workerId: string,
    failure: { message: string; retries?: number; retry_backoff_ms?: number },
  ): Promise<{ job: JobRow; instance?: InstanceRow }> {
    const job = await this.held(trx, tenantId, id, workerId);
    const retries = failure.retries ?? job.retries - 1;
    const store = new JobStore(trx);
    if (retries > 0) {
      this.service.log(
        tenantId,
        'warn',
        `Job ${id} (${job.type}) failed, ${retries} retries left: ${failure.message}`,
        {
          instance: job.instance_id,
          job: id,
        },
      );
      return { job: await store.retryLater(tenantId, id, retries, failure.retry_backoff_ms ?? 0, failure.message) };
    }
    const row = await this.activeInstance(trx, job);
    const instance = await this.incident(trx, row, job, failure.message);
    return { job: (await store.get(tenantId, id))!, instance };
  }

  extendLock(trx: Knex.Transaction, tenantId: string, id: string, workerId: string, lockMs: number): Promise<JobRow> {
    return this.held(trx, tenantId, id, workerId).then(() => new JobStore(trx).extend(tenantId, id, lockMs));
  }

  /** The job fails for good: an open incident at its activity, the instance in state incident, the job waiting to be reopened by its resolution. */
  private async incident(trx: Knex.Transaction, row: InstanceRow, job: JobRow, message: string): Promise<InstanceRow> {
    const now = this.service.clock.now();
    await new JobStore(trx).markFailed(row.tenant_id, job.id, message.slice(0, 4000), now);
    await new IncidentStore(trx).insert({
      tenant_id: row.tenant_id,
      id: newId('bpx'),
      instance_id: row.id,
      activity_id: job.activity_id,
      message: `Job ${job.id} (${job.type}) failed: ${message}`.slice(0, 4000),
      state: 'open',
      created_at: now,
      resolved_at: null,
    });
    const revision = row.revision + 1;
    await new InstanceStore(trx).save(row.tenant_id, row.id, { state: 'incident', revision, updated_at: now });
    this.service.forget(row.id);
    this.service.log(row.tenant_id, 'error', `Incident on instance ${row.id} at ${job.activity_id}: ${message}`, {
      instance: row.id,
      activity: job.activity_id,
      job: job.id,
    });
    return { ...row, state: 'incident', revision, updated_at: now };
  }
}
