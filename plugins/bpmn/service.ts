import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/types.js';
import type { RuntimeLog } from '../../kernel/plugin/api.js';
import type { AdvanceOptions, CombinedAdvance, PreparedAdvance } from './advance-types.js';
import { AdvanceWrites, WriteTarget } from './advance-writes.js';
import { answerParent, startChild } from './call-activities.js';
import { DefinitionCache } from './definition-cache.js';
import { deploy, type Deployed } from './deployment.js';
import { EngineFactory } from './engine-factory.js';
import type { Settings, Variables } from './generated/manifest-types.js';
import type { EngineDeps, Input } from './instance-engine.js';
import { newInstanceRow, type NewInstance } from './instance-row.js';
import { KeptEngines } from './kept-engines.js';
import type { EnginePool } from './main-engine-pool.js';
import { ThreadedEngine } from './main-threaded-engine.js';
import { carryMessages, deliver } from './message-flows.js';
import { HistoryStore, InstanceStore, type DefinitionRow, type InstanceRow } from './store.js';
import { Stale } from './write-guards.js';

type Db = Knex | Knex.Transaction;

/**
 * The BPMN domain: deploying definitions, starting instances and advancing them. An advance
 * locks the instance's row (the lease on it: one kernel advances an instance at a time, and a
 * killed kernel's lock ends with its connection), runs the engine until it only waits, and
 * writes the new state, what it waits for, its history and incidents in the same transaction.
 * This class ties the parts together: deploying (deployment.ts), definitions and their engine
 * contexts (definition-cache.ts), new instances' rows (instance-row.ts), making engines
 * (engine-factory.ts), the engines kept between advances (kept-engines.ts), an advance's writes
 * (advance-writes.ts, write-guards.ts), call activities and message flows (call-activities.ts,
 * message-flows.ts).
 */
export class BpmnService {
  private readonly definitions = new DefinitionCache();
  private readonly engines: EngineFactory;
  private readonly kept: KeptEngines;
  private readonly writes: AdvanceWrites;
  /** Says 'created' (with the tenant) once an advance that created jobs committed: long-polling fetches on this kernel look again. */
  readonly jobsCreated = new EventEmitter();

  constructor(
    readonly clock: Clock,
    private readonly logs: RuntimeLog,
    private readonly engineDeps: Omit<EngineDeps, 'log' | 'maxSteps' | 'retries'>,
    readonly settings: Settings,
  ) {
    const log = (...args: Parameters<BpmnService['log']>) => this.log(...args);
    this.engines = new EngineFactory(settings, engineDeps, log);
    this.kept = new KeptEngines(settings.engine_cache, this.definitions);
    this.writes = new AdvanceWrites(clock, settings.job_retries, log, this.jobsCreated);
  }

  /** The engine threads, for tests that end one. */
  get enginePool(): EnginePool | undefined {
    return this.engines.enginePool;
  }

  close(): Promise<void> {
    return this.engines.close();
  }

  log(tenantId: string, level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>): void {
    void this.logs.write({ tenantId, level, source: 'bpmn', message, fields }).catch(() => undefined);
  }

  /** Variables sent with a call (the manifest's schema made them an object), refused when larger than the setting allows. */
  checkVariables(value: Variables | undefined, pointer = '/variables'): Variables {
    if (value === undefined) return {};
    const size = Buffer.byteLength(JSON.stringify(value));
    if (size > this.settings.max_variables_bytes)
      throw new ApiError(
        'validation_error',
        `Variables take ${size} bytes; at most ${this.settings.max_variables_bytes} are allowed.`,
        { details: [{ in: 'body', pointer, message: `larger than ${this.settings.max_variables_bytes} bytes` }] },
      );
    return value;
  }

  /** Stores each process of the XML as its next version (see deployment.ts). */
  deploy(db: Db, tenantId: string, xml: string): Promise<Deployed> {
    return deploy(db, tenantId, xml, this.engineDeps.sandbox(), this.clock);
  }

  definition(db: Db, tenantId: string, key: string): Promise<DefinitionRow> {
    return this.definitions.definition(db, tenantId, key);
  }

  /** A process the model does not mark isExecutable="true" is deployed for viewing only. */
  checkExecutable(definition: DefinitionRow): void {
    if (definition.meta.executable === false)
      throw new ApiError(
        'conflict',
        `Process "${definition.process_id}" v${definition.version} is not executable (its model lacks isExecutable="true"); it is deployed for viewing only.`,
      );
  }

  /** Creates an instance and runs it to its first wait, in `trx`. */
  async start(
    trx: Knex.Transaction,
    tenantId: string,
    definition: DefinitionRow,
    options: NewInstance & { prepared?: PreparedAdvance | undefined },
  ): Promise<InstanceRow> {
    this.checkExecutable(definition);
    if (options.prepared)
      return this.advance(trx, options.prepared.row, { kind: 'start' }, { fresh: true, prepared: options.prepared });
    const row = newInstanceRow(tenantId, definition, options, this.clock.now());
    const now = row.created_at;
    if (options.engineState)
      await new HistoryStore(trx).snapshot(tenantId, row.id, 0, [], options.variables, options.engineState, now);
    if (options.replayOf)
      this.log(
        tenantId,
        'info',
        `Instance ${row.id} of ${definition.process_id} v${definition.version} started as a replay of ${options.replayOf}.`,
        { instance: row.id, process_id: definition.process_id },
      );
    // The row is written once, after the first advance (nobody can see or lock it before the commit anyway).
    return this.advance(trx, row, options.engineState ? { kind: 'resume' } : { kind: 'start' }, { fresh: true });
  }

  /**
   * Runs a new instance of a threadable definition to its first wait in an engine thread, before
   * any transaction (see PreparedAdvance); start() then writes it. Undefined when the definition
   * runs on the main thread.
   */
  async prepareStart(
    db: Db,
    tenantId: string,
    definition: DefinitionRow,
    options: { variables: Record<string, unknown>; businessKey: string | null },
  ): Promise<PreparedAdvance | undefined> {
    this.checkExecutable(definition);
    if (!this.engines.threaded(await this.definitions.context(definition))) return undefined;
    const row = newInstanceRow(tenantId, definition, options, this.clock.now());
    const engine = this.engines.threadedEngine(row, definition);
    const result = await engine.advance({ kind: 'start' }, db, { variablesOfFirst: true, keepAs: row.revision + 1 });
    return { row, engine, result };
  }

  /**
   * Completes task `taskId` with this kernel's kept engine without locking first: the advance
   * runs on the engine as this kernel committed it, and its writes go in one statement guarded by
   * the row's revision (and the task still open), so a concurrent completion or another kernel's
   * advance makes it write nothing. Undefined when there is no kept engine for the task, when its
   * definition has service tasks (their appends go to the database during the advance, before
   * the guard could undo them), or when the instance moved on: the caller then locks and reloads.
   */
  async completeKept(
    trx: Knex.Transaction,
    tenantId: string,
    taskId: string,
    variables: Record<string, unknown>,
    prepared?: PreparedAdvance & { executionId: string },
  ): Promise<InstanceRow | undefined> {
    try {
      if (prepared)
        return await this.advance(
          trx,
          prepared.row,
          { kind: 'signal', ref: '', variables },
          { completedTask: { executionId: prepared.executionId, variables }, unlocked: { taskId }, prepared },
        );
      const kept = await this.kept.keptTask(trx, tenantId, taskId);
      if (!kept) return undefined;
      const { row, wait } = kept;
      return await this.advance(
        trx,
        row,
        { kind: 'signal', ref: wait.activityId, executionId: wait.executionId, variables },
        { completedTask: { executionId: wait.executionId, variables }, unlocked: { taskId } },
      );
    } catch (err) {
      if (err instanceof Stale) return undefined;
      throw err;
    }
  }

  /**
   * completeKept's engine run, before the transaction (see PreparedAdvance), when the kept engine
   * is in an engine thread; completeKept(…, prepared) then writes it with the same guard.
   */
  async prepareCompleteKept(
    db: Db,
    tenantId: string,
    taskId: string,
    variables: Record<string, unknown>,
  ): Promise<(PreparedAdvance & { executionId: string }) | undefined> {
    const taken = this.kept.takeThreadedTask(tenantId, taskId);
    if (!taken) return undefined;
    const { row, engine, wait } = taken;
    const result = await engine.advance(
      { kind: 'signal', ref: wait.activityId, executionId: wait.executionId, variables },
      db,
      { keepAs: row.revision + 1 },
    );
    return { row, engine, result, executionId: wait.executionId };
  }

  async lockInstance(trx: Knex.Transaction, tenantId: string, id: string): Promise<InstanceRow> {
    const row = await new InstanceStore(trx).lock(tenantId, id);
    if (!row) throw new ApiError('not_found', `No instance "${id}".`);
    return row;
  }

  /**
   * Runs `input` on the locked instance `row` and stores what it did. With `unlocked` (see
   * completeKept) the row is not locked: the writes are guarded, or preceded by locking the
   * task and checking the row did not move; a row that moved throws Stale, nothing written.
   */
  advance(trx: Knex.Transaction, row: InstanceRow, input: Input, options: AdvanceOptions = {}): Promise<InstanceRow> {
    return this.advanceIn(trx, undefined, row, input, options);
  }

  /**
   * advance with its writes in a call's combined write (see CombinedAdvance). Undefined, nothing
   * written and the kept engine forgotten, when they would not all be parts of one statement.
   */
  async advanceCombined(
    combined: CombinedAdvance,
    row: InstanceRow,
    input: Extract<Input, { kind: 'job' }>,
    options: { completedJob: string },
  ): Promise<InstanceRow | undefined> {
    try {
      return await this.advanceIn(undefined, combined, row, input, options);
    } catch (err) {
      if (err instanceof Stale) return undefined;
      throw err;
    }
  }

  private async advanceIn(
    trx: Knex.Transaction | undefined,
    combined: CombinedAdvance | undefined,
    row: InstanceRow,
    input: Input,
    options: AdvanceOptions = {},
  ): Promise<InstanceRow> {
    const target = new WriteTarget(trx, combined);
    const definition = await this.definitions.definition(target.db, row.tenant_id, row.definition_key);
    const context = await this.definitions.context(definition);
    const keptEngine = this.kept.take(row, input);
    const engine =
      options.prepared?.engine ?? keptEngine ?? (await this.engines.engine(target.db, row, definition, context));
    // Variables go into the history only where a replay reads them: the first activity an instance starts.
    const result =
      options.prepared?.result ??
      (await (engine instanceof ThreadedEngine
        ? engine.advance(input, target.db, { variablesOfFirst: Boolean(options.fresh), keepAs: row.revision + 1 })
        : // Without a transaction (combined), a service task that a publisher serves fails the advance: written in a transaction then.
          engine.advance(input, trx, { variablesOfFirst: Boolean(options.fresh) })));
    const saved = await this.writes.write(target, row, definition, result, options);
    if (result.state === 'completed') {
      const ended = () => this.log(row.tenant_id, 'info', `Instance ${row.id} completed.`, { instance: row.id });
      // A combined statement may still write nothing (the call then runs again in a transaction).
      if (combined) target.afterCommit(ended);
      else ended();
    }
    // None of these in a combined advance (keptJob and combinable leave such advances to a transaction).
    if (trx && definition.meta.message_flows?.length) await carryMessages(this, trx, saved, definition, result.history);
    if (trx && result.engineState !== undefined) {
      for (const wait of result.waits)
        if (wait.kind === 'call' && !row.waiting.some((w) => w.executionId === wait.executionId))
          await startChild(this, trx, saved, wait);
    }
    if (trx && result.state === 'completed' && saved.parent_id) await answerParent(this, trx, saved);
    if (result.state === 'active' && result.engineState !== undefined) {
      // Kept only once the advance committed: a rolled-back advance must not leave its engine behind.
      target.afterCommit(() => this.kept.keep(saved, engine));
    }
    return saved;
  }

  /** Delivers a message or signal to each subscribed instance (see message-flows.ts); answers their ids. */
  deliver(
    trx: Knex.Transaction,
    tenantId: string,
    kind: 'message' | 'signal',
    name: string,
    correlationKey: string | undefined,
    variables: Record<string, unknown>,
    processId?: string,
  ): Promise<string[]> {
    return deliver(this, trx, tenantId, kind, name, correlationKey, variables, processId);
  }

  /** Forgets the kept engine of instance `id` and its tasks. */
  forget(id: string): void {
    this.kept.forget(id);
  }

  /** See KeptEngines.keptJob: the kept row and execution of job `jobId` when it may be completed without a transaction. */
  keptJob(db: Db, tenantId: string, jobId: string): Promise<{ row: InstanceRow; executionId: string } | undefined> {
    return this.kept.keptJob(db, tenantId, jobId);
  }

  /** Whether the engine job `jobId` waits in is kept here, on this thread (keptJob's first check): the call may try a combined write. */
  keepsJob(tenantId: string, jobId: string): boolean {
    return this.kept.keepsJob(tenantId, jobId);
  }

  /** The instance's row as this kernel committed it, if its engine is kept and `revision` is still the row's. */
  keptRow(tenantId: string, id: string, revision: number): InstanceRow | undefined {
    return this.kept.keptRow(tenantId, id, revision);
  }
}
