import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/types.js';
import type { CombinedWrite, RuntimeLog } from '../../kernel/plugin/api.js';
import { parseDefinition } from './definitions.js';
import {
  InstanceEngine,
  type Advance,
  type EngineDeps,
  type HistoryEntry,
  type Input,
  type Wait,
} from './instance-engine.js';
import { engineContext, type EngineContext } from './context.js';
import type { Settings, Variables } from './generated/manifest-types.js';
import { EnginePool, defaultEngineThreads } from './main-engine-pool.js';
import { ThreadedEngine } from './main-threaded-engine.js';
import { WriteBatch, type Write } from './batch.js';
import { jobIdOf, newId, taskIdOf } from './ids.js';
import { JobStore } from './store/jobs.js';
import {
  DefinitionStore,
  HistoryStore,
  IncidentStore,
  InstanceStore,
  WaitStore,
  type DefinitionRow,
  type InstanceRow,
} from './store.js';

/** An instance's engine on the main thread or in an engine thread: the same advance. */
type AnyEngine = InstanceEngine | ThreadedEngine;

type Db = Knex | Knex.Transaction;

/**
 * An advance an engine thread computed before the call's transaction opened (prepareStart,
 * prepareCompleteKept): the transaction then only writes it. On the embedded database the
 * transaction holds the one connection, so an engine run inside it would leave the database idle
 * while the thread works; outside it, the main thread serves other calls' writes meanwhile.
 */
export interface PreparedAdvance {
  row: InstanceRow;
  engine: ThreadedEngine;
  result: Advance;
}

/** An unlocked advance found its instance moved on (or could not tell) before writing anything. */
class Stale extends Error {}

/**
 * An advance whose writes go into a call's combined write (one statement with its audit record,
 * no transaction) instead of a transaction: see JobService.completeKept. The statement's guards
 * make it write nothing unless the job was still held by its worker and the instance still at
 * the revision the engine ran from; the call then runs again in a transaction.
 */
export interface CombinedAdvance {
  /** For reads (the definition, when not cached): not the call's transaction (it has none). */
  db: Db;
  write: CombinedWrite;
  /** The guard that closes the completed job at `now`, while its worker still holds it (JobStore.closeHeldQuery). */
  closeJob: (now: Date) => Write;
}

/**
 * The BPMN domain: deploying definitions, starting instances and advancing them. An advance
 * locks the instance's row (the lease on it: one kernel advances an instance at a time, and a
 * killed kernel's lock ends with its connection), runs the engine until it only waits, and
 * writes the new state, what it waits for, its history and incidents in the same transaction.
 */
export class BpmnService {
  private readonly contexts = new Map<string, Promise<EngineContext>>();
  private readonly definitions = new Map<string, DefinitionRow>();
  private readonly engines = new Map<
    string,
    { revision: number; engine: AnyEngine; row: InstanceRow; waitIds: string[] }
  >();
  /** Open task or job id → instance id, for the kept engines' rows: how a completion finds a kept engine without reading. */
  private readonly keptWaits = new Map<string, string>();
  /** Says 'created' (with the tenant) once an advance that created jobs committed: long-polling fetches on this kernel look again. */
  readonly jobsCreated = new EventEmitter();
  /** Engine threads, started on first use; undefined when settings.engine_threads is 0. */
  private pool: EnginePool | undefined;

  constructor(
    readonly clock: Clock,
    private readonly logs: RuntimeLog,
    private readonly engineDeps: Omit<EngineDeps, 'log' | 'maxSteps' | 'retries'>,
    readonly settings: Settings,
  ) {
    const threads = settings.engine_threads ?? defaultEngineThreads();
    if (threads > 0)
      this.pool = new EnginePool(threads, (tenantId, level, message, fields) =>
        this.log(tenantId, level, message, fields),
      );
  }

  /** The engine threads, for tests that end one. */
  get enginePool(): EnginePool | undefined {
    return this.pool;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
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

  /**
   * Stores each process of the XML as the next version of its process id (one deployment: the
   * same XML, several process ids); a process whose XML is already stored is answered as it is.
   */
  async deploy(
    db: Db,
    tenantId: string,
    xml: string,
  ): Promise<{ definitions: Array<{ definition: DefinitionRow; created: boolean }>; warnings: string[] }> {
    const parsed = await parseDefinition(xml, this.engineDeps.sandbox());
    const store = new DefinitionStore(db);
    const deployment = newId('bpy');
    const definitions: Array<{ definition: DefinitionRow; created: boolean }> = [];
    for (const meta of parsed.processes) {
      const existing = await store.byHash(tenantId, meta.process_id, parsed.xmlHash);
      if (existing) {
        definitions.push({ definition: existing, created: false });
        continue;
      }
      const version = await store.nextVersion(tenantId, meta.process_id);
      const definition: DefinitionRow = {
        tenant_id: tenantId,
        key: newId('bpd'),
        process_id: meta.process_id,
        version,
        name: meta.name,
        xml_hash: parsed.xmlHash,
        xml,
        meta: { ...meta, deployment },
        created_at: this.clock.now(),
      };
      await store.insert(definition);
      definitions.push({ definition, created: true });
    }
    return { definitions, warnings: parsed.warnings };
  }

  async definition(db: Db, tenantId: string, key: string): Promise<DefinitionRow> {
    const cached = this.definitions.get(`${tenantId}/${key}`);
    if (cached) return cached;
    const found = await new DefinitionStore(db).get(tenantId, key);
    if (!found) throw new ApiError('not_found', `No definition "${key}".`);
    this.definitions.set(`${tenantId}/${key}`, found);
    return found;
  }

  /** A process the model does not mark isExecutable="true" is deployed for viewing only. */
  checkExecutable(definition: DefinitionRow): void {
    if (definition.meta.executable === false)
      throw new ApiError(
        'conflict',
        `Process "${definition.process_id}" v${definition.version} is not executable (its model lacks isExecutable="true"); it is deployed for viewing only.`,
      );
  }

  /** The definition as engines are built from it (context.ts), made once per definition. */
  private context(definition: DefinitionRow): Promise<EngineContext> {
    const id = `${definition.tenant_id}/${definition.key}`;
    let context = this.contexts.get(id);
    if (!context) {
      context = engineContext(definition.xml, definition.meta.process_id);
      this.contexts.set(id, context);
      context.catch(() => this.contexts.delete(id));
    }
    return context;
  }

  /** Creates an instance and runs it to its first wait, in `trx`. */
  async start(
    trx: Knex.Transaction,
    tenantId: string,
    definition: DefinitionRow,
    options: {
      variables: Record<string, unknown>;
      businessKey: string | null;
      replayOf?: string;
      replayFrom?: string;
      engineState?: unknown;
      prepared?: PreparedAdvance | undefined;
      parent?: { id: string; executionId: string };
    },
  ): Promise<InstanceRow> {
    this.checkExecutable(definition);
    if (options.prepared)
      return this.advance(trx, options.prepared.row, { kind: 'start' }, { fresh: true, prepared: options.prepared });
    const row = this.newRow(tenantId, definition, options);
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
    if (!this.pool || !(await this.context(definition)).threadable) return undefined;
    const row = this.newRow(tenantId, definition, options);
    const engine = this.threadedEngine(row, definition);
    const result = await engine.advance({ kind: 'start' }, db, { variablesOfFirst: true, keepAs: row.revision + 1 });
    return { row, engine, result };
  }

  private newRow(
    tenantId: string,
    definition: DefinitionRow,
    options: {
      variables: Record<string, unknown>;
      businessKey: string | null;
      replayOf?: string;
      replayFrom?: string;
      engineState?: unknown;
      parent?: { id: string; executionId: string };
    },
  ): InstanceRow {
    const now = this.clock.now();
    return {
      tenant_id: tenantId,
      id: newId('bpi'),
      definition_key: definition.key,
      process_id: definition.process_id,
      version: definition.version,
      business_key: options.businessKey,
      state: 'active',
      variables: options.variables,
      waiting: [],
      state_revision: options.engineState ? 0 : null,
      revision: 0,
      replay_of: options.replayOf ?? null,
      replay_from: options.replayFrom ?? null,
      parent_id: options.parent?.id ?? null,
      parent_execution_id: options.parent?.executionId ?? null,
      created_at: now,
      updated_at: now,
      ended_at: null,
    };
  }

  private threadedEngine(row: InstanceRow, definition: DefinitionRow): ThreadedEngine {
    return new ThreadedEngine(
      this.pool!,
      { tenantId: row.tenant_id, id: row.id, businessKey: row.business_key },
      { id: `${row.tenant_id}/${definition.key}`, xml: definition.xml, meta: definition.meta },
      { maxSteps: this.settings.max_steps, retries: this.settings.retries, keep: this.settings.engine_cache },
      { stateRevision: row.state_revision, variables: row.variables },
      (db, revision) => new HistoryStore(db).stateTextAt(row.tenant_id, row.id, revision),
    );
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
    if (prepared) {
      try {
        return await this.advance(
          trx,
          prepared.row,
          { kind: 'signal', ref: '', variables },
          { completedTask: { executionId: prepared.executionId, variables }, unlocked: { taskId }, prepared },
        );
      } catch (err) {
        if (err instanceof Stale) return undefined;
        throw err;
      }
    }
    const instanceId = this.keptWaits.get(taskId);
    const kept = instanceId !== undefined ? this.engines.get(instanceId) : undefined;
    if (!kept || kept.row.tenant_id !== tenantId || !kept.waitIds.includes(taskId)) return undefined;
    const definition = await this.definition(trx, tenantId, kept.row.definition_key);
    if (!(await this.context(definition)).sideEffectFree) return undefined;
    const wait = kept.row.waiting.find((w) => w.kind === 'task' && taskIdOf(kept.row.id, w.executionId) === taskId);
    if (wait?.kind !== 'task') return undefined;
    try {
      return await this.advance(
        trx,
        kept.row,
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
    const instanceId = this.keptWaits.get(taskId);
    const kept = instanceId !== undefined ? this.engines.get(instanceId) : undefined;
    if (
      !kept ||
      !(kept.engine instanceof ThreadedEngine) ||
      kept.row.tenant_id !== tenantId ||
      !kept.waitIds.includes(taskId)
    )
      return undefined;
    const wait = kept.row.waiting.find((w) => w.kind === 'task' && taskIdOf(kept.row.id, w.executionId) === taskId);
    if (wait?.kind !== 'task') return undefined;
    // Taken: whatever happens next, this engine has moved on from the row it was kept with.
    this.forget(kept.row.id);
    const result = await kept.engine.advance(
      { kind: 'signal', ref: wait.activityId, executionId: wait.executionId, variables },
      db,
      { keepAs: kept.row.revision + 1 },
    );
    return { row: kept.row, engine: kept.engine, result, executionId: wait.executionId };
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
  advance(
    trx: Knex.Transaction,
    row: InstanceRow,
    input: Input,
    options: Parameters<BpmnService['advanceIn']>[4] = {},
  ): Promise<InstanceRow> {
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
    options: {
      fresh?: boolean;
      completedTask?: { executionId: string; variables: Record<string, unknown> };
      /** The execution whose job this advance completes (its row closes as completed, not cancelled). */
      completedJob?: string;
      unlocked?: { taskId: string };
      prepared?: PreparedAdvance;
    } = {},
  ): Promise<InstanceRow> {
    // Reads go to the transaction, or (combined) to the database outside any.
    const db: Db = trx ?? combined!.db;
    /** Runs once the advance's writes committed (a transaction's, or the combined statement). */
    const afterCommit = (callback: () => void): void => {
      if (combined) combined.write.onCommit(callback);
      else
        void trx!.executionPromise.then(
          () => callback(),
          () => undefined,
        );
    };
    const definition = await this.definition(db, row.tenant_id, row.definition_key);
    const context = await this.context(definition);
    const cached = this.engines.get(row.id);
    this.forget(row.id);
    // A kept engine is the saved state only if nobody advanced the instance since; a resume
    // always starts from the saved state, because a kept engine's timers never fire.
    const instance = { tenantId: row.tenant_id, id: row.id, businessKey: row.business_key };
    const stateRevision = row.state_revision;
    // Definitions without service and script tasks run in an engine thread (context.ts says which);
    // the others on this thread, where their publishers' transaction and the sandbox are.
    let engine: AnyEngine;
    if (options.prepared) engine = options.prepared.engine;
    else if (cached && cached.revision === row.revision && input.kind === 'signal') engine = cached.engine;
    else if (
      cached &&
      cached.revision === row.revision &&
      input.kind === 'job' &&
      cached.engine instanceof InstanceEngine &&
      cached.engine.awaitsJob(input.executionId)
    )
      engine = cached.engine;
    else if (this.pool && context.threadable) engine = this.threadedEngine(row, definition);
    else {
      engine = new InstanceEngine(
        {
          ...this.engineDeps,
          maxSteps: this.settings.max_steps,
          retries: this.settings.retries,
          log: (level, message, fields) => this.log(row.tenant_id, level, message, fields),
        },
        definition.meta,
        context.source,
        instance,
        stateRevision === null ? undefined : await new HistoryStore(db).stateAt(row.tenant_id, row.id, stateRevision),
        row.variables,
      );
    }
    // Variables go into the history only where a replay reads them: the first activity an instance starts.
    const result =
      options.prepared?.result ??
      (await (engine instanceof ThreadedEngine
        ? engine.advance(input, db, { variablesOfFirst: Boolean(options.fresh), keepAs: row.revision + 1 })
        : // Without a transaction (combined), a service task that a publisher serves fails the advance: written in a transaction then.
          engine.advance(input, trx, { variablesOfFirst: Boolean(options.fresh) })));
    const now = this.clock.now();
    const revision = row.revision + 1;
    const tenantId = row.tenant_id;
    let guarded = false;
    // Nothing written yet: an advance that would write more than one statement holds goes to a transaction.
    if (combined && !this.combinable(row, result)) throw new Stale();
    if (options.unlocked) {
      if (this.guardable(row.waiting, result, options.completedTask?.executionId)) guarded = true;
      else {
        // Writes that cannot be guarded (deletes that go first, incidents): lock, and go on only if the row is the one the engine ran from.
        const locked = await new InstanceStore(db).lockTask(tenantId, options.unlocked.taskId);
        if (
          locked?.task.state !== 'open' ||
          locked.instance.state !== 'active' ||
          locked.instance.revision !== row.revision
        )
          throw new Stale();
      }
    }
    // Everything the advance writes goes in one statement (see WriteBatch).
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
        this.settings.job_retries,
        now,
        options.completedJob,
        // A combined advance's guard closes the completed job (a statement updates a row once).
        combined !== undefined,
      );
      if (result.waits.some((w) => w.kind === 'job' && !row.waiting.some((p) => p.executionId === w.executionId)))
        afterCommit(() => this.jobsCreated.emit('created', tenantId));
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
    const snapshotted = result.engineState !== undefined && result.state !== 'completed';
    const saved: InstanceRow = {
      ...row,
      state: result.state,
      variables: result.variables,
      revision,
      updated_at: now,
      waiting: result.engineState !== undefined ? result.waits : row.waiting,
      state_revision: snapshotted ? revision : row.state_revision,
      ended_at: result.state === 'completed' ? now : null,
    };
    const fields = {
      state: saved.state,
      variables: saved.variables,
      waiting: saved.waiting,
      state_revision: saved.state_revision,
      revision,
      updated_at: now,
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
      const job = combined.closeJob(now);
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
    if (result.state === 'completed') {
      const ended = () => this.log(tenantId, 'info', `Instance ${row.id} completed.`, { instance: row.id });
      // A combined statement may still write nothing (the call then runs again in a transaction).
      if (combined) afterCommit(ended);
      else ended();
    }
    // None of these in a combined advance (keptJob and combinable leave such advances to a transaction).
    if (trx && definition.meta.message_flows?.length) await this.carryMessages(trx, saved, definition, result.history);
    if (trx && result.engineState !== undefined) {
      for (const wait of result.waits)
        if (wait.kind === 'call' && !row.waiting.some((w) => w.executionId === wait.executionId))
          await this.startChild(trx, saved, wait);
    }
    if (trx && result.state === 'completed' && saved.parent_id) await this.answerParent(trx, saved);
    if (result.state === 'active' && result.engineState !== undefined) {
      // Kept only once the advance committed: a rolled-back advance must not leave its engine behind.
      afterCommit(() => this.keep(saved, engine));
    }
    return saved;
  }

  /**
   * A call activity whose process is another definition starts a child instance of it (the
   * version it pins, else the latest) with the parent's variables and business key; the child
   * answers the parent when it completes (answerParent). No such process: an incident on the parent.
   */
  private async startChild(trx: Knex.Transaction, parent: InstanceRow, wait: Extract<Wait, { kind: 'call' }>) {
    const found = await new DefinitionStore(trx).keyOf(parent.tenant_id, wait.processId, wait.version);
    const definition = found ? await this.definition(trx, parent.tenant_id, found.key) : undefined;
    if (!definition || definition.meta.executable === false) {
      const message = `Call activity ${wait.activityId} calls process "${wait.processId}"${wait.version !== undefined ? ` version ${wait.version}` : ''}, which is not deployed${definition ? ' as executable' : ''}; deploy it and resolve this incident.`;
      const now = this.clock.now();
      await new IncidentStore(trx).insert({
        tenant_id: parent.tenant_id,
        id: newId('bpx'),
        instance_id: parent.id,
        activity_id: wait.activityId,
        message,
        state: 'open',
        created_at: now,
        resolved_at: null,
      });
      parent.state = 'incident';
      await new InstanceStore(trx).save(parent.tenant_id, parent.id, { state: 'incident', updated_at: now });
      this.forget(parent.id);
      this.log(parent.tenant_id, 'error', message, { instance: parent.id, activity: wait.activityId });
      return;
    }
    const child = await this.start(trx, parent.tenant_id, definition, {
      variables: parent.variables,
      businessKey: parent.business_key,
      parent: { id: parent.id, executionId: wait.executionId },
    });
    this.log(
      parent.tenant_id,
      'info',
      `Instance ${child.id} of ${definition.process_id} v${definition.version} called by ${parent.id}.`,
      {
        instance: child.id,
        parent: parent.id,
      },
    );
  }

  /** A completed child completes its parent's call activity, its variables going back unless the model says not. */
  private async answerParent(trx: Knex.Transaction, child: InstanceRow): Promise<void> {
    const parent = await this.lockInstance(trx, child.tenant_id, child.parent_id!);
    const wait = parent.waiting.find((w) => w.kind === 'call' && w.executionId === child.parent_execution_id);
    if (parent.state !== 'active' || !wait) return;
    const parentDefinition = await this.definition(trx, parent.tenant_id, parent.definition_key);
    const back = parentDefinition.meta.calls?.[wait.activityId]?.variables_out !== false;
    await this.advance(trx, parent, {
      kind: 'signal',
      ref: wait.activityId,
      executionId: wait.executionId,
      ...(back ? { variables: child.variables } : {}),
    });
  }

  /**
   * Delivers a message or signal to each subscribed instance (locked in id order, so two
   * deliveries never deadlock), optionally only to instances of one process; answers their ids.
   */
  async deliver(
    trx: Knex.Transaction,
    tenantId: string,
    kind: 'message' | 'signal',
    name: string,
    correlationKey: string | undefined,
    variables: Record<string, unknown>,
    processId?: string,
  ): Promise<string[]> {
    const waits = new WaitStore(trx);
    const subscribers = await waits.subscribers(tenantId, kind, name, correlationKey);
    const instances = [...new Set(subscribers.map((s) => s.instance_id))].sort();
    const delivered: string[] = [];
    for (const id of instances) {
      let row = await this.lockInstance(trx, tenantId, id);
      if (processId !== undefined && row.process_id !== processId) continue;
      // Read again under the lock: another delivery may have moved the instance on meanwhile.
      const current = (await waits.subscribers(tenantId, kind, name, correlationKey)).filter(
        (s) => s.instance_id === id,
      );
      if (current.length === 0 || row.state !== 'active') continue;
      for (const ref of [...new Set(current.map((s) => s.ref))]) {
        if (row.state !== 'active') break;
        row = await this.advance(trx, row, { kind: 'signal', ref, variables });
      }
      delivered.push(id);
    }
    return delivered;
  }

  /**
   * Message flows between pools: each pool is its own instance, so when an activity a message
   * flow leaves has ended, its message goes to the other process's instances waiting for it
   * (correlated by the message's correlationKey variable, else by the business key), or starts an
   * instance of it when the flow enters a message start event. The sender's variables go along.
   */
  private async carryMessages(
    trx: Knex.Transaction,
    row: InstanceRow,
    definition: DefinitionRow,
    history: readonly HistoryEntry[],
  ): Promise<void> {
    const ended = new Set(history.filter((h) => h.outcome === 'completed').map((h) => h.activityId));
    for (const flow of definition.meta.message_flows ?? []) {
      if (!ended.has(flow.source) || !flow.target_process) continue;
      const variable = flow.message_ref ? definition.meta.correlation[flow.message_ref] : undefined;
      const value = variable ? row.variables[variable] : row.business_key;
      const key = value === undefined || value === null ? undefined : String(value);
      const delivered = await this.deliver(
        trx,
        row.tenant_id,
        'message',
        flow.message,
        key,
        row.variables,
        flow.target_process,
      );
      if (delivered.length > 0 || !flow.target_is_start) continue;
      const target = await new DefinitionStore(trx).keyOf(row.tenant_id, flow.target_process);
      if (!target) continue;
      const targetDefinition = await this.definition(trx, row.tenant_id, target.key);
      if (targetDefinition.meta.executable === false) continue;
      let started = await this.start(trx, row.tenant_id, targetDefinition, {
        variables: row.variables,
        businessKey: row.business_key,
      });
      // It waits at its message start event: the message that started it is that one.
      for (const wait of started.waiting)
        if (wait.kind === 'message' && wait.activityId === flow.target_activity && started.state === 'active')
          started = await this.advance(trx, started, { kind: 'signal', ref: wait.ref, variables: row.variables });
      this.log(row.tenant_id, 'info', `Message "${flow.message}" from ${row.id} started instance ${started.id}.`, {
        instance: started.id,
        from: row.id,
      });
    }
  }

  /**
   * Whether an unlocked advance's writes can all be guarded: the instance waited and waits only
   * on tasks (timers and subscriptions are replaced by deletes that go first), no task vanished
   * but the one completed (cancelling it goes first), and nothing failed (incidents).
   */
  private guardable(previous: readonly Wait[], result: Advance, completedExecutionId: string | undefined): boolean {
    if (result.engineState === undefined || result.incidents.length > 0) return false;
    if (previous.some((w) => w.kind !== 'task') || result.waits.some((w) => w.kind !== 'task')) return false;
    const now = new Set(result.waits.map((w) => (w as Extract<Wait, { kind: 'task' }>).executionId));
    return previous.every((w) => w.kind !== 'task' || now.has(w.executionId) || w.executionId === completedExecutionId);
  }

  private keep(row: InstanceRow, engine: AnyEngine): void {
    if (this.settings.engine_cache <= 0) return;
    if (engine instanceof ThreadedEngine) engine.keptAt(row);
    const id = row.id;
    this.forget(id);
    const waitIds = row.waiting.flatMap((w) =>
      w.kind === 'task' ? [taskIdOf(id, w.executionId)] : w.kind === 'job' ? [jobIdOf(id, w.executionId)] : [],
    );
    this.engines.set(id, { revision: row.revision, engine, row, waitIds });
    for (const waitId of waitIds) this.keptWaits.set(waitId, id);
    if (this.engines.size > this.settings.engine_cache) this.forget(this.engines.keys().next().value as string);
  }

  /** Forgets the kept engine of instance `id` and its tasks. */
  forget(id: string): void {
    const kept = this.engines.get(id);
    if (!kept) return;
    this.engines.delete(id);
    for (const waitId of kept.waitIds) if (this.keptWaits.get(waitId) === id) this.keptWaits.delete(waitId);
  }

  /**
   * The kept row whose engine's service task waits for job `jobId`, with the job's execution, when
   * this kernel keeps that engine on its own thread and the definition lets an advance run
   * without a transaction: its service tasks are all jobs (a publisher writes in the
   * transaction while the engine runs) and it sends no messages to other pools (carried in the
   * transaction after the advance). Undefined otherwise: the job is completed in a transaction.
   */
  async keptJob(
    db: Db,
    tenantId: string,
    jobId: string,
  ): Promise<{ row: InstanceRow; executionId: string } | undefined> {
    if (!this.keepsJob(tenantId, jobId)) return undefined;
    const kept = this.engines.get(this.keptWaits.get(jobId)!)!;
    const wait = kept.row.waiting.find((w) => w.kind === 'job' && jobIdOf(kept.row.id, w.executionId) === jobId);
    if (wait?.kind !== 'job' || !(kept.engine instanceof InstanceEngine) || !kept.engine.awaitsJob(wait.executionId))
      return undefined;
    const definition = await this.definition(db, tenantId, kept.row.definition_key);
    if (definition.meta.message_flows?.length) return undefined;
    const { services } = await this.context(definition);
    if (!services.every((id) => definition.meta.jobs?.[id] !== undefined)) return undefined;
    return { row: kept.row, executionId: wait.executionId };
  }

  /** Whether the engine job `jobId` waits in is kept here, on this thread (keptJob's first check): the call may try a combined write. */
  keepsJob(tenantId: string, jobId: string): boolean {
    const instanceId = this.keptWaits.get(jobId);
    const kept = instanceId !== undefined ? this.engines.get(instanceId) : undefined;
    return (
      kept !== undefined &&
      kept.row.tenant_id === tenantId &&
      kept.engine instanceof InstanceEngine &&
      kept.waitIds.includes(jobId)
    );
  }

  /**
   * Whether a combined advance's writes are all parts of one statement: the instance waited and
   * waits only on tasks and jobs, no task vanished (cancelling one goes first), nothing failed
   * (incidents), and an ended instance answers no parent (that locks the parent).
   */
  private combinable(row: InstanceRow, result: Advance): boolean {
    if (result.engineState === undefined || result.incidents.length > 0) return false;
    if (result.state === 'completed' && row.parent_id) return false;
    const simple = (w: Wait) => w.kind === 'task' || w.kind === 'job';
    if (!row.waiting.every(simple) || !result.waits.every(simple)) return false;
    const now = new Set(result.waits.map((w) => w.executionId));
    return row.waiting.every((w) => w.kind !== 'task' || now.has(w.executionId));
  }

  /** The instance's row as this kernel committed it, if its engine is kept and `revision` is still the row's. */
  keptRow(tenantId: string, id: string, revision: number): InstanceRow | undefined {
    const kept = this.engines.get(id);
    return kept && kept.revision === revision && kept.row.tenant_id === tenantId ? kept.row : undefined;
  }
}
