import type { Knex } from 'knex';
import type { DefinitionCache } from './definition-cache.js';
import type { AnyEngine } from './engine-factory.js';
import { jobIdOf, taskIdOf } from './ids.js';
import { InstanceEngine, type Input, type Wait } from './instance-engine.js';
import { ThreadedEngine } from './main-threaded-engine.js';
import type { InstanceRow } from './store.js';

type TaskWait = Extract<Wait, { kind: 'task' }>;

interface Kept {
  revision: number;
  engine: AnyEngine;
  /** The row as this kernel committed it with this engine. */
  row: InstanceRow;
  waitIds: string[];
}

/**
 * The engines of the instances this kernel advanced last (at most settings.engine_cache), each
 * with the row its advance committed: the next advance of an instance nobody moved on since runs
 * on its kept engine instead of restoring the saved state, and a completion finds it by the
 * task's or job's id without reading.
 */
export class KeptEngines {
  private readonly engines = new Map<string, Kept>();
  /** Open task or job id → instance id, for the kept engines' rows: how a completion finds a kept engine without reading. */
  private readonly waits = new Map<string, string>();

  constructor(
    private readonly capacity: number,
    private readonly definitions: DefinitionCache,
  ) {}

  /** Keeps `engine` as of `row`: only once the advance committed (a rolled-back advance must not leave its engine behind). */
  keep(row: InstanceRow, engine: AnyEngine): void {
    if (this.capacity <= 0) return;
    if (engine instanceof ThreadedEngine) engine.keptAt(row);
    const id = row.id;
    this.forget(id);
    const waitIds = row.waiting.flatMap((w) =>
      w.kind === 'task' ? [taskIdOf(id, w.executionId)] : w.kind === 'job' ? [jobIdOf(id, w.executionId)] : [],
    );
    this.engines.set(id, { revision: row.revision, engine, row, waitIds });
    for (const waitId of waitIds) this.waits.set(waitId, id);
    if (this.engines.size > this.capacity) this.forget(this.engines.keys().next().value as string);
  }

  /** Forgets the kept engine of instance `id` and its tasks. */
  forget(id: string): void {
    const kept = this.engines.get(id);
    if (!kept) return;
    this.engines.delete(id);
    for (const waitId of kept.waitIds) if (this.waits.get(waitId) === id) this.waits.delete(waitId);
  }

  /**
   * Takes the kept engine of `row`'s instance for an advance by `input`: forgotten in any case
   * (the advance moves the instance on), answered only when it can run `input` from `row`. A kept
   * engine is the saved state only if nobody advanced the instance since; a resume always starts
   * from the saved state, because a kept engine's timers never fire.
   */
  take(row: InstanceRow, input: Input): AnyEngine | undefined {
    const cached = this.engines.get(row.id);
    this.forget(row.id);
    if (!cached || cached.revision !== row.revision) return undefined;
    if (input.kind === 'signal') return cached.engine;
    if (input.kind === 'job' && cached.engine instanceof InstanceEngine && cached.engine.awaitsJob(input.executionId))
      return cached.engine;
    return undefined;
  }

  /** The instance's row as this kernel committed it, if its engine is kept and `revision` is still the row's. */
  keptRow(tenantId: string, id: string, revision: number): InstanceRow | undefined {
    const kept = this.engines.get(id);
    return kept && kept.revision === revision && kept.row.tenant_id === tenantId ? kept.row : undefined;
  }

  /**
   * The kept row waiting in task `taskId`, with the task's wait, when its definition has no
   * service tasks (their appends go to the database during the advance, before the guard could
   * undo them): completeKept may then advance it without locking.
   */
  async keptTask(
    db: Knex | Knex.Transaction,
    tenantId: string,
    taskId: string,
  ): Promise<{ row: InstanceRow; wait: TaskWait } | undefined> {
    const found = this.task(tenantId, taskId);
    if (!found) return undefined;
    const definition = await this.definitions.definition(db, tenantId, found.kept.row.definition_key);
    if (!(await this.definitions.context(definition)).sideEffectFree) return undefined;
    return { row: found.kept.row, wait: found.wait };
  }

  /** Takes the engine waiting in task `taskId` when it is kept in an engine thread (see prepareCompleteKept). */
  takeThreadedTask(
    tenantId: string,
    taskId: string,
  ): { row: InstanceRow; engine: ThreadedEngine; wait: TaskWait } | undefined {
    const found = this.task(tenantId, taskId);
    const engine = found?.kept.engine;
    if (!found || !(engine instanceof ThreadedEngine)) return undefined;
    // Taken: whatever happens next, this engine has moved on from the row it was kept with.
    this.forget(found.kept.row.id);
    return { row: found.kept.row, engine, wait: found.wait };
  }

  private task(tenantId: string, taskId: string): { kept: Kept; wait: TaskWait } | undefined {
    const instanceId = this.waits.get(taskId);
    const kept = instanceId !== undefined ? this.engines.get(instanceId) : undefined;
    if (!kept || kept.row.tenant_id !== tenantId || !kept.waitIds.includes(taskId)) return undefined;
    const wait = kept.row.waiting.find((w) => w.kind === 'task' && taskIdOf(kept.row.id, w.executionId) === taskId);
    return wait?.kind === 'task' ? { kept, wait } : undefined;
  }

  /**
   * The kept row whose engine's service task waits for job `jobId`, with the job's execution, when
   * this kernel keeps that engine on its own thread and the definition lets an advance run
   * without a transaction: its service tasks are all jobs (a publisher writes in the
   * transaction while the engine runs) and it sends no messages to other pools (carried in the
   * transaction after the advance). Undefined otherwise: the job is completed in a transaction.
   */
  async keptJob(
    db: Knex | Knex.Transaction,
    tenantId: string,
    jobId: string,
  ): Promise<{ row: InstanceRow; executionId: string } | undefined> {
    if (!this.keepsJob(tenantId, jobId)) return undefined;
    const kept = this.engines.get(this.waits.get(jobId)!)!;
    const wait = kept.row.waiting.find((w) => w.kind === 'job' && jobIdOf(kept.row.id, w.executionId) === jobId);
    if (wait?.kind !== 'job' || !(kept.engine instanceof InstanceEngine) || !kept.engine.awaitsJob(wait.executionId))
      return undefined;
    const definition = await this.definitions.definition(db, tenantId, kept.row.definition_key);
    if (definition.meta.message_flows?.length) return undefined;
    const { services } = await this.definitions.context(definition);
    if (!services.every((id) => definition.meta.jobs?.[id] !== undefined)) return undefined;
    return { row: kept.row, executionId: wait.executionId };
  }

  /** Whether the engine job `jobId` waits in is kept here, on this thread (keptJob's first check): the call may try a combined write. */
  keepsJob(tenantId: string, jobId: string): boolean {
    const instanceId = this.waits.get(jobId);
    const kept = instanceId !== undefined ? this.engines.get(instanceId) : undefined;
    return (
      kept !== undefined &&
      kept.row.tenant_id === tenantId &&
      kept.engine instanceof InstanceEngine &&
      kept.waitIds.includes(jobId)
    );
  }
}
