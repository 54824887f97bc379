import type { Knex } from 'knex';
import { BpmnModdle } from 'bpmn-moddle';
import { Engine } from 'bpmn-engine';
import { ApiError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/types.js';
import type { RuntimeLog } from '../../kernel/plugin/api.js';
import { parseDefinition } from './definitions.js';
import { InstanceEngine, type EngineDeps, type Input } from './engine.js';
import { WriteBatch } from './batch.js';
import { newId, taskIdOf } from './ids.js';
import { DefinitionStore, HistoryStore, IncidentStore, InstanceStore, WaitStore, type DefinitionRow, type InstanceRow } from './store.js';

export interface BpmnSettings {
  /** Activities one advance may start before it stops with an incident (a loop without a wait state). */
  max_steps: number;
  /** Extra attempts of a failing service or script task within one advance, before an incident. */
  retries: number;
  max_variables_bytes: number;
  timer_interval_ms: number;
  timer_batch: number;
  /** Engines kept in memory between advances (reused only while the row's revision matches). */
  engine_cache: number;
}

type Db = Knex | Knex.Transaction;

/**
 * The BPMN domain: deploying definitions, starting instances and advancing them. An advance
 * locks the instance's row (the lease on it: one kernel advances an instance at a time, and a
 * killed kernel's lock ends with its connection), runs the engine until it only waits, and
 * writes the new state, what it waits for, its history and incidents in the same transaction.
 */
export class BpmnService {
  private readonly contexts = new Map<string, Promise<unknown>>();
  private readonly definitions = new Map<string, DefinitionRow>();
  private readonly engines = new Map<string, { revision: number; engine: InstanceEngine }>();

  constructor(
    readonly clock: Clock,
    private readonly logs: RuntimeLog,
    private readonly engineDeps: Omit<EngineDeps, 'log' | 'maxSteps' | 'retries'>,
    readonly settings: BpmnSettings,
  ) {}

  log(tenantId: string, level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>): void {
    void this.logs.write({ tenantId, level, source: 'bpmn', message, fields }).catch(() => undefined);
  }

  checkVariables(value: unknown, pointer = '/variables'): Record<string, unknown> {
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError('validation_error', 'Variables must be a JSON object.', { details: [{ in: 'body', pointer, message: 'must be an object' }] });
    const size = Buffer.byteLength(JSON.stringify(value));
    if (size > this.settings.max_variables_bytes) throw new ApiError('validation_error', `Variables take ${size} bytes; at most ${this.settings.max_variables_bytes} are allowed.`, { details: [{ in: 'body', pointer, message: `larger than ${this.settings.max_variables_bytes} bytes` }] });
    return value as Record<string, unknown>;
  }

  async deploy(db: Db, tenantId: string, xml: string): Promise<{ definition: DefinitionRow; created: boolean }> {
    const parsed = await parseDefinition(xml);
    const store = new DefinitionStore(db);
    const existing = await store.byHash(tenantId, parsed.meta.process_id, parsed.xmlHash);
    if (existing) return { definition: existing, created: false };
    const version = await store.nextVersion(tenantId, parsed.meta.process_id);
    const definition: DefinitionRow = { tenant_id: tenantId, key: newId('bpd'), process_id: parsed.meta.process_id, version, name: parsed.meta.name, xml_hash: parsed.xmlHash, xml, meta: parsed.meta, created_at: this.clock.now() };
    await store.insert(definition);
    return { definition, created: true };
  }

  async definition(db: Db, tenantId: string, key: string): Promise<DefinitionRow> {
    const cached = this.definitions.get(`${tenantId}/${key}`);
    if (cached) return cached;
    const found = await new DefinitionStore(db).get(tenantId, key);
    if (!found) throw new ApiError('not_found', `No definition "${key}".`);
    this.definitions.set(`${tenantId}/${key}`, found);
    return found;
  }

  private context(definition: DefinitionRow): Promise<unknown> {
    const id = `${definition.tenant_id}/${definition.key}`;
    let context = this.contexts.get(id);
    if (!context) {
      // The engine's serialized form of the definition, made once: engines built from it skip
      // parsing and serializing, and saved states leave it out (recover takes it from here).
      context = (async () => {
        const parsed = await new BpmnModdle().fromXML(definition.xml);
        const engine = new Engine({ name: 'definition', moddleContext: parsed } as never);
        const [loaded] = (await engine.getDefinitions()) as unknown as Array<{ environment: { options: { source: unknown } } }>;
        const source = loaded!.environment.options.source as { serialize(): unknown };
        // getState() would copy the whole definition into every saved state; recover finds it here instead.
        source.serialize = () => undefined;
        return source;
      })();
      this.contexts.set(id, context);
      context.catch(() => this.contexts.delete(id));
    }
    return context;
  }

  /** Creates an instance and runs it to its first wait, in `trx`. */
  async start(trx: Knex.Transaction, tenantId: string, definition: DefinitionRow, options: { variables: Record<string, unknown>; businessKey: string | null; replayOf?: string; replayFrom?: string; engineState?: unknown }): Promise<InstanceRow> {
    const now = this.clock.now();
    const row: InstanceRow = {
      tenant_id: tenantId, id: newId('bpi'), definition_key: definition.key, process_id: definition.process_id, version: definition.version,
      business_key: options.businessKey, state: 'active', variables: options.variables, waiting: [], state_revision: options.engineState ? 0 : null, revision: 0,
      replay_of: options.replayOf ?? null, replay_from: options.replayFrom ?? null, created_at: now, updated_at: now, ended_at: null,
    };
    if (options.engineState) await new HistoryStore(trx).snapshot(tenantId, row.id, 0, [], options.variables, options.engineState, now);
    if (options.replayOf) this.log(tenantId, 'info', `Instance ${row.id} of ${definition.process_id} v${definition.version} started as a replay of ${options.replayOf}.`, { instance: row.id, process_id: definition.process_id });
    // The row is written once, after the first advance (nobody can see or lock it before the commit anyway).
    return this.advance(trx, row, options.engineState ? { kind: 'resume' } : { kind: 'start' }, { fresh: true });
  }

  async lockInstance(trx: Knex.Transaction, tenantId: string, id: string): Promise<InstanceRow> {
    const row = await new InstanceStore(trx).lock(tenantId, id);
    if (!row) throw new ApiError('not_found', `No instance "${id}".`);
    return row;
  }

  /** Runs `input` on the locked instance `row` and stores what it did. */
  async advance(trx: Knex.Transaction, row: InstanceRow, input: Input, options: { fresh?: boolean; completedTask?: { executionId: string; variables: Record<string, unknown> } } = {}): Promise<InstanceRow> {
    const definition = await this.definition(trx, row.tenant_id, row.definition_key);
    const context = await this.context(definition);
    const cached = this.engines.get(row.id);
    this.engines.delete(row.id);
    // A kept engine is the saved state only if nobody advanced the instance since; a resume
    // always starts from the saved state, because a kept engine's timers never fire.
    const engine = cached && cached.revision === row.revision && input.kind === 'signal'
      ? cached.engine
      : new InstanceEngine({ ...this.engineDeps, maxSteps: this.settings.max_steps, retries: this.settings.retries, log: (level, message, fields) => this.log(row.tenant_id, level, message, fields) }, definition.meta, context, { tenantId: row.tenant_id, id: row.id, businessKey: row.business_key }, row.state_revision === null ? undefined : await new HistoryStore(trx).stateAt(row.tenant_id, row.id, row.state_revision), row.variables);
    // Variables go into the history only where a replay reads them: the first activity an instance starts.
    const result = await engine.advance(input, trx, { variablesOfFirst: Boolean(options.fresh) });
    const now = this.clock.now();
    const revision = row.revision + 1;
    const tenantId = row.tenant_id;
    // Everything the advance writes goes in one statement (see WriteBatch).
    const batch = new WriteBatch();
    batch.add(new HistoryStore(trx).recordQuery(tenantId, row.id, result.history, revision * 100_000));
    if (result.engineState !== undefined) {
      // A message subscription's key: the variable its message names (rt:correlationKey), else the business key.
      for (const wait of result.waits) {
        if (wait.kind !== 'message') continue;
        const variable = definition.meta.correlation[wait.ref];
        const value = variable ? result.variables[variable] : row.business_key;
        wait.correlationKey = value === undefined || value === null ? null : String(value);
      }
      // A task keeps the time it was first seen waiting (its row's created_at), so answers need not read it back.
      const seen = new Map(row.waiting.flatMap((w) => (w.kind === 'task' && w.createdAt ? [[w.executionId, w.createdAt] as const] : [])));
      for (const wait of result.waits) if (wait.kind === 'task') wait.createdAt = seen.get(wait.executionId) ?? now.toISOString();
      await new WaitStore(trx).replaceInto(batch, tenantId, row.id, row.waiting, result.waits, (executionId) => taskIdOf(row.id, executionId), now, options.completedTask);
      // An ended instance has nothing to resume: no snapshot.
      if (result.state !== 'completed') batch.add(new HistoryStore(trx).snapshotQuery(tenantId, row.id, revision, [...new Set(result.waits.map((w) => w.activityId))], result.variables, result.engineState, now));
    }
    for (const incident of result.incidents) {
      batch.add(new IncidentStore(trx).insertQuery({ tenant_id: tenantId, id: newId('bpx'), instance_id: row.id, activity_id: incident.activityId, message: incident.message.slice(0, 4000), state: 'open', created_at: now, resolved_at: null }));
      this.log(tenantId, 'error', `Incident on instance ${row.id}${incident.activityId ? ` at ${incident.activityId}` : ''}: ${incident.message}`, { instance: row.id, activity: incident.activityId });
    }
    const snapshotted = result.engineState !== undefined && result.state !== 'completed';
    const saved: InstanceRow = {
      ...row, state: result.state, variables: result.variables, revision, updated_at: now,
      waiting: result.engineState !== undefined ? result.waits : row.waiting,
      state_revision: snapshotted ? revision : row.state_revision, ended_at: result.state === 'completed' ? now : null,
    };
    if (options.fresh) batch.add(new InstanceStore(trx).insertQuery(saved));
    else batch.add(new InstanceStore(trx).saveQuery(tenantId, row.id, { state: saved.state, variables: saved.variables, waiting: saved.waiting, state_revision: saved.state_revision, revision, updated_at: now, ended_at: saved.ended_at }));
    await batch.run(trx);
    if (result.state === 'completed') this.log(tenantId, 'info', `Instance ${row.id} completed.`, { instance: row.id });
    if (result.state === 'active' && result.engineState !== undefined) {
      // Kept only once the advance committed: a rolled-back advance must not leave its engine behind.
      void trx.executionPromise.then(() => this.keep(row.id, revision, engine), () => undefined);
    }
    return saved;
  }

  private keep(id: string, revision: number, engine: InstanceEngine): void {
    if (this.settings.engine_cache <= 0) return;
    this.engines.set(id, { revision, engine });
    if (this.engines.size > this.settings.engine_cache) this.engines.delete(this.engines.keys().next().value as string);
  }

  forget(id: string): void {
    this.engines.delete(id);
  }
}
