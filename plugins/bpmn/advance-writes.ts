import type { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import type { Clock } from '../../kernel/types.js';
import type { AdvanceOptions, CombinedAdvance } from './advance-types.js';
import { WriteBatch } from './batch.js';
import { jobIdOf, newId, taskIdOf } from './ids.js';
import type { Advance } from './instance-engine.js';
import type { BpmnService } from './service.js';
import { JobStore } from './store/jobs.js';
import {
  HistoryStore,
  IncidentStore,
  InstanceStore,
  WaitStore,
  type DefinitionRow,
  type InstanceRow,
} from './store.js';
import { Stale, combinable, guardOrLock } from './write-guards.js';

/** Where an advance's writes go: the call's transaction, or (combined) its combined write. */
export class WriteTarget {
  /** Reads go to the transaction, or (combined) to the database outside any. */
  readonly db: Knex | Knex.Transaction;

  constructor(
    readonly trx: Knex.Transaction | undefined,
    readonly combined: CombinedAdvance | undefined,
  ) {
    this.db = trx ?? combined!.db;
  }

  /** Runs once the advance's writes committed (a transaction's, or the combined statement). */
  afterCommit(callback: () => void): void {
    if (this.combined) this.combined.write.onCommit(callback);
    else
      void this.trx!.executionPromise.then(
        () => callback(),
        () => undefined,
      );
  }
}

/**
 * Writes what an advance did: its history, what it waits for (tasks, subscriptions, timers,
 * jobs), its snapshot, its incidents and the instance's row, all in one statement (see
 * WriteBatch). The statement goes out in the call's transaction (the row locked), guarded (an
 * unlocked advance, see BpmnService.completeKept), or as parts of a call's combined write.
 */
export class AdvanceWrites {
  constructor(
    private readonly clock: Clock,
    private readonly jobRetries: number,
    private readonly log: BpmnService['log'],
    /** Told 'created' (with the tenant) once an advance that created jobs committed. */
    private readonly jobsCreated: EventEmitter,
  ) {}

  /**
   * Writes `result`, the advance of `row`, and answers the row as saved. Throws Stale, nothing
   * written, when an unlocked or combined advance must run again in a transaction, locked.
   */
  async write(
    target: WriteTarget,
    row: InstanceRow,
    definition: DefinitionRow,
    result: Advance,
    options: AdvanceOptions,
  ): Promise<InstanceRow> {
    const now = this.clock.now();
    // Nothing written yet: an advance that would write more than one statement holds goes to a transaction.
    if (target.combined && !combinable(row, result)) throw new Stale();
    const guarded = options.unlocked
      ? await guardOrLock(target.db, row, result, options.unlocked.taskId, options.completedTask?.executionId)
      : false;
    const batch = await this.batch(target, row, definition, result, options, now, guarded);
    const saved = savedRow(row, result, now);
    await this.send(target, batch, row, saved, guarded, options);
    return saved;
  }

  /** Everything the advance writes but the instance's row, as one statement (see WriteBatch). */
  private async batch(
    target: WriteTarget,
    row: InstanceRow,
    definition: DefinitionRow,
    result: Advance,
    options: AdvanceOptions,
    now: Date,
    guarded: boolean,
  ): Promise<WriteBatch> {
    const { db } = target;
    const revision = row.revision + 1;
    const tenantId = row.tenant_id;
    const batch = new WriteBatch();
    batch.add(new HistoryStore(db).recordQuery(tenantId, row.id, result.history, revision * 100_000, guarded));
    if (result.engineState !== undefined) {
      // A message subscription's key: the variable its message names (rt:correlationKey), else the business key.
      for (const wait of result.waits) {
        if (wait.kind !== 'message') continue;
        const variable = definition.meta.correlation[wait.ref];
        const value = variable ? result.variables[variable] : row.business_key;
        wait.correlationKey = value === undefined || value === null ? null : String(value);
      }
      // A task keeps the time it was first seen waiting (its row's created_at), so answers need not read it back.
      const seen = new Map(
        row.waiting.flatMap((w) => (w.kind === 'task' && w.createdAt ? [[w.executionId, w.createdAt] as const] : [])),
      );
      for (const wait of result.waits)
        if (wait.kind === 'task') wait.createdAt = seen.get(wait.executionId) ?? now.toISOString();
      await new WaitStore(db).replaceInto(
        batch,
        tenantId,
        row.id,
        row.waiting,
        result.waits,
        (executionId) => taskIdOf(row.id, executionId),
        now,
        options.completedTask,
        guarded,
      );
      await new JobStore(db).replaceInto(
        batch,
        tenantId,
        row.id,
        row.waiting,
        result.waits,
        (executionId) => jobIdOf(row.id, executionId),
        this.jobRetries,
        now,
        options.completedJob,
        // A combined advance's guard closes the completed job (a statement updates a row once).
        target.combined !== undefined,
      );
      if (result.waits.some((w) => w.kind === 'job' && !row.waiting.some((p) => p.executionId === w.executionId)))
        target.afterCommit(() => this.jobsCreated.emit('created', tenantId));
      // An ended instance has nothing to resume: no snapshot.
      if (result.state !== 'completed')
        batch.add(
          new HistoryStore(db).snapshotQuery(
            tenantId,
            row.id,
            revision,
            [...new Set(result.waits.map((w) => w.activityId))],
            result.variables,
            result.engineState,
            now,
            guarded,
          ),
        );
    }
    for (const incident of result.incidents) {
      batch.add(
        new IncidentStore(db).insertQuery({
          tenant_id: tenantId,
          id: newId('bpx'),
          instance_id: row.id,
          activity_id: incident.activityId,
          message: incident.message.slice(0, 4000),
          state: 'open',
          created_at: now,
          resolved_at: null,
        }),
      );
      this.log(
        tenantId,
        'error',
        `Incident on instance ${row.id}${incident.activityId ? ` at ${incident.activityId}` : ''}: ${incident.message}`,
        { instance: row.id, activity: incident.activityId },
      );
    }
    return batch;
  }

  /** Sends `batch` with the instance's row saved as `saved`: in the transaction, guarded, or combined. */
  private async send(
    target: WriteTarget,
    batch: WriteBatch,
    row: InstanceRow,
    saved: InstanceRow,
    guarded: boolean,
    options: AdvanceOptions,
  ): Promise<void> {
    const { db, trx, combined } = target;
    const tenantId = row.tenant_id;
    const fields = {
      state: saved.state,
      variables: saved.variables,
      waiting: saved.waiting,
      state_revision: saved.state_revision,
      revision: saved.revision,
      updated_at: saved.updated_at,
      ended_at: saved.ended_at,
    };
    if (combined) {
      // The job closed only while its worker holds it, then the row saved only at the revision the
      // engine ran from (locked in that order, as lockHeldWithInstance does); either finding
      // nothing sends the call to a transaction, nothing written. Guards go first (a later guard
      // before an earlier one): the other parts run only once both held.
      const instance = new InstanceStore(db).saveAtQuery(tenantId, row.id, row.revision, fields);
      combined.write.add('bpmn_instance', instance.sql, instance.bindings as Knex.RawBinding[], {
        guard: true,
        orTransaction: true,
      });
      const job = combined.closeJob(saved.updated_at);
      combined.write.add('bpmn_job', job.sql, job.bindings as Knex.RawBinding[], {
        guard: true,
        orTransaction: true,
      });
      batch.addTo(combined.write, 'bpmn_advance');
    } else if (guarded) {
      if (
        !(await batch.runGuarded(
          trx!,
          new InstanceStore(db).guardQuery(tenantId, row.id, row.revision, options.unlocked!.taskId, fields),
        ))
      )
        throw new Stale();
    } else {
      if (options.fresh) batch.add(new InstanceStore(db).insertQuery(saved));
      else batch.add(new InstanceStore(db).saveQuery(tenantId, row.id, fields));
      await batch.run(trx!);
    }
  }
}

/** The instance's row once the advance's writes committed. */
function savedRow(row: InstanceRow, result: Advance, now: Date): InstanceRow {
  const revision = row.revision + 1;
  const snapshotted = result.engineState !== undefined && result.state !== 'completed';
  return {
    ...row,
    state: result.state,
    variables: result.variables,
    revision,
    updated_at: now,
    waiting: result.engineState !== undefined ? result.waits : row.waiting,
    state_revision: snapshotted ? revision : row.state_revision,
    ended_at: result.state === 'completed' ? now : null,
  };
}
