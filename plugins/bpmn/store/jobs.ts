import type { Knex } from 'knex';
import type { Wait } from '../instance-engine.js';
import { textArray, valuesList, type Write, type WriteBatch } from '../batch.js';

/** The jobs table's SQL (migration 003). Every query names the tenant first; times that decide a lock are the database's. */

type Db = Knex | Knex.Transaction;
const iso = (d: unknown): string | null => (d === null || d === undefined ? null : new Date(d as string).toISOString());

export interface JobRow {
  tenant_id: string;
  id: string;
  instance_id: string;
  execution_id: string;
  activity_id: string;
  type: string;
  state: 'open' | 'completed' | 'failed' | 'cancelled';
  retries: number;
  worker_id: string | null;
  lock_expires_at: Date | null;
  due_at: Date;
  error_message: string | null;
  created_at: Date;
  ended_at: Date | null;
}

export function jobView(row: JobRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    type: row.type,
    state: row.state,
    instance_id: row.instance_id,
    activity_id: row.activity_id,
    retries: row.retries,
    worker_id: row.worker_id,
    lock_expires_at: iso(row.lock_expires_at),
    due_at: iso(row.due_at),
    error_message: row.error_message,
    created_at: iso(row.created_at),
    ended_at: iso(row.ended_at),
    ...extra,
  };
}

type JobWait = Extract<Wait, { kind: 'job' }>;
const jobsOf = (list: readonly Wait[]): JobWait[] => list.filter((w): w is JobWait => w.kind === 'job');

/** A job as a worker gets it: with its instance's process, business key and variables. */
export interface ClaimedJob {
  job: JobRow;
  process_id: string | null;
  business_key: string | null;
  variables: Record<string, unknown>;
}

export class JobStore {
  constructor(private readonly db: Db) {}

  /**
   * Makes the job rows say what the instance waits for now: new jobs inserted (open, due now),
   * the one this advance completed closed as completed, other vanished ones cancelled.
   */
  async replaceInto(
    batch: WriteBatch,
    tenantId: string,
    instanceId: string,
    previous: readonly Wait[],
    waits: readonly Wait[],
    jobId: (executionId: string) => string,
    retries: number,
    now: Date,
    completed?: string,
    completedClosed = false,
  ): Promise<void> {
    const waiting = new Set(jobsOf(waits).map((j) => j.executionId));
    const before = new Set(jobsOf(previous).map((j) => j.executionId));
    // completedClosed: the caller closes the completed job itself (closeHeldQuery, a combined write's guard).
    const gone = [...before].filter((e) => !waiting.has(e) && !(completedClosed && e === completed));
    // Closing the jobs that went rides in the advance's one statement: the rows it closes and the
    // rows it inserts are different executions, so neither part needs to see the other's effect.
    if (gone.length > 0)
      batch.add({
        sql: `update bpmn_jobs set state = case when execution_id = ? then 'completed' else 'cancelled' end,
                ended_at = ?, worker_id = null, lock_expires_at = null
              where tenant_id = ? and instance_id = ? and state in ('open', 'failed') and execution_id = any(?::text[])`,
        bindings: [completed ?? '', now, tenantId, instanceId, textArray(gone)],
      });
    const added = jobsOf(waits).filter((j) => !before.has(j.executionId));
    if (added.length > 0)
      batch.add({
        sql: `insert into bpmn_jobs (tenant_id, id, instance_id, execution_id, activity_id, type, state, retries, due_at, created_at) values ${valuesList(added.length, 10)} on conflict (tenant_id, instance_id, execution_id) do nothing`,
        bindings: added.flatMap((j) => [
          tenantId,
          jobId(j.executionId),
          instanceId,
          j.executionId,
          j.activityId,
          j.type,
          'open',
          retries,
          now,
          now,
        ]),
      });
  }

  /**
   * Locks up to `max` due, unlocked (or lock-expired) open jobs of `types` for `workerId`, oldest
   * first, skipping rows another transaction holds: two workers never get the same job.
   */
  /**
   * Locks up to `max` due jobs of the types for the worker, and answers each with what the worker
   * gets besides the job: its instance's process, business key and variables (read in the same
   * statement).
   */
  async claim(tenantId: string, types: string[], workerId: string, max: number, lockMs: number): Promise<ClaimedJob[]> {
    // The jobs are picked in a CTE, which runs once: as `id in (select … limit n)`, the planner may
    // run the subquery again for each row it updates, locking more than `max` jobs for the worker.
    // The update finds the rows it locked by their physical address (ctid; the lock keeps them
    // where they are until the statement ends), and by nothing else: given the tenant or the id
    // too, the embedded database's planner (it never gathers statistics, so every index looks
    // alike) read every job of the tenant through whichever index it took first. The rows are the
    // tenant's: picked chose them. One job (a worker's usual fetch) is one address, which the
    // planner always looks up directly; a list of them it may scan the table for instead.
    const result = await this.db.raw(
      `with picked as (
          select ctid from bpmn_jobs
           where tenant_id = ? and state = 'open' and type = any(?::text[]) and due_at <= now()
             and (lock_expires_at is null or lock_expires_at <= now())
           order by created_at, id limit ? for update skip locked),
        locked as (
          update bpmn_jobs j set worker_id = ?, lock_expires_at = now() + (? * interval '1 millisecond')
           where ${max === 1 ? 'j.ctid = (select ctid from picked)' : 'j.ctid = any(array(select ctid from picked))'}
          returning j.*)
        select l.*, i.process_id as instance_process_id, i.business_key as instance_business_key,
               i.variables as instance_variables
          from locked l left join bpmn_instances i on i.tenant_id = l.tenant_id and i.id = l.instance_id`,
      [tenantId, textArray(types), max, workerId, lockMs],
    );
    type Row = JobRow & {
      instance_process_id: string | null;
      instance_business_key: string | null;
      instance_variables: Record<string, unknown> | null;
    };
    return (result.rows as Row[])
      .map(({ instance_process_id, instance_business_key, instance_variables, ...job }) => ({
        job,
        process_id: instance_process_id,
        business_key: instance_business_key,
        variables: instance_variables ?? {},
      }))
      .sort((a, b) => (a.job.id < b.job.id ? -1 : 1));
  }

  /**
   * Closes the job as completed only while it is open and `workerId` holds its lock, unexpired by
   * the database's clock (as lockHeld checks it), with RETURNING: a combined write's guard. Under
   * a concurrent fetch or answer it waits for that one's commit and checks the row it left.
   */
  closeHeldQuery(tenantId: string, id: string, workerId: string, now: Date): Write {
    // `(state = 'open') is true`, not `state = 'open'`: that would let a planner without
    // statistics (the embedded database's) find the job through the open jobs' index
    // (bpmn_jobs_open), reading all of them, rather than by its primary key.
    return {
      sql: `update bpmn_jobs set state = 'completed', ended_at = ?, worker_id = null, lock_expires_at = null
             where tenant_id = ? and id = ? and (state = 'open') is true and worker_id = ? and lock_expires_at > now() returning 1`,
      bindings: [now, tenantId, id, workerId],
    };
  }

  get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<JobRow | undefined> {
    const query = this.db('bpmn_jobs').where({ tenant_id: tenantId, id }).first();
    return options.forUpdate ? query.forUpdate() : query;
  }

  /**
   * The job, locked for this transaction, with whether its lock is `workerId`'s and unexpired by
   * the database's clock (one statement: answering a job is the hot path of every worker).
   */
  async lockHeld(tenantId: string, id: string, workerId: string): Promise<{ job: JobRow; held: boolean } | undefined> {
    const result = await this.db.raw(
      `select *, (state = 'open' and worker_id = ? and lock_expires_at > now()) as held_by_worker
         from bpmn_jobs where tenant_id = ? and id = ? for update`,
      [workerId, tenantId, id],
    );
    const row = (result.rows as Array<JobRow & { held_by_worker: boolean }>)[0];
    if (!row) return undefined;
    const { held_by_worker: held, ...job } = row;
    return { job, held };
  }

  /**
   * lockHeld and the job's instance row locked with it, in one statement (an answer advances the
   * instance; a second statement was a fifth of what the database did per completion), with only
   * what says whether a kept copy of that row is current: its state and revision.
   */
  async lockHeldWithInstance(
    tenantId: string,
    id: string,
    workerId: string,
  ): Promise<{ job: JobRow; held: boolean; instance: { state: string; revision: number } } | undefined> {
    const result = await this.db.raw(
      `select j.*, (j.state = 'open' and j.worker_id = ? and j.lock_expires_at > now()) as held_by_worker,
              i.state as instance_state, i.revision as instance_revision
         from bpmn_jobs j join bpmn_instances i on i.tenant_id = j.tenant_id and i.id = j.instance_id
        where j.tenant_id = ? and j.id = ? for update of j, i`,
      [workerId, tenantId, id],
    );
    type Row = JobRow & { held_by_worker: boolean; instance_state: string; instance_revision: number | string };
    const row = (result.rows as Row[])[0];
    if (!row) return undefined;
    const { held_by_worker: held, instance_state: state, instance_revision: revision, ...job } = row;
    return { job, held, instance: { state, revision: Number(revision) } };
  }

  async extend(tenantId: string, id: string, lockMs: number): Promise<JobRow> {
    const result = await this.db.raw(
      `update bpmn_jobs set lock_expires_at = now() + (? * interval '1 millisecond') where tenant_id = ? and id = ? returning *`,
      [lockMs, tenantId, id],
    );
    return (result.rows as JobRow[])[0]!;
  }

  /** A failure with retries left: unlocked, due again after the backoff. */
  async retryLater(tenantId: string, id: string, retries: number, backoffMs: number, message: string): Promise<JobRow> {
    const result = await this.db.raw(
      `update bpmn_jobs set retries = ?, error_message = ?, worker_id = null, lock_expires_at = null,
              due_at = now() + (? * interval '1 millisecond')
        where tenant_id = ? and id = ? returning *`,
      [retries, message, backoffMs, tenantId, id],
    );
    return (result.rows as JobRow[])[0]!;
  }

  /** No retries left: the job waits for an operator (its incident). */
  async markFailed(tenantId: string, id: string, message: string, now: Date): Promise<void> {
    await this.db('bpmn_jobs').where({ tenant_id: tenantId, id }).update({
      state: 'failed',
      retries: 0,
      error_message: message,
      worker_id: null,
      lock_expires_at: null,
      ended_at: now,
    });
  }

  /** An instance's failed jobs open again (its incident resolved), with `retries` attempts. */
  async reopenFailed(tenantId: string, instanceId: string, retries: number, now: Date): Promise<number> {
    return this.db('bpmn_jobs')
      .where({ tenant_id: tenantId, instance_id: instanceId, state: 'failed' })
      .update({ state: 'open', retries, due_at: now, ended_at: null });
  }

  async cancelAll(tenantId: string, instanceId: string, now: Date): Promise<void> {
    await this.db('bpmn_jobs')
      .where({ tenant_id: tenantId, instance_id: instanceId })
      .whereIn('state', ['open', 'failed'])
      .update({ state: 'cancelled', ended_at: now, worker_id: null, lock_expires_at: null });
  }

  list(
    tenantId: string,
    filters: { state?: string; type?: string; instance_id?: string },
    after: string | undefined,
    fetch: number,
  ): Promise<JobRow[]> {
    const query = this.db('bpmn_jobs').where({ tenant_id: tenantId }).orderBy('id').limit(fetch);
    for (const [column, value] of Object.entries(filters)) if (value !== undefined) query.andWhere(column, value);
    if (after !== undefined) query.andWhere('id', '>', after);
    return query;
  }
}
