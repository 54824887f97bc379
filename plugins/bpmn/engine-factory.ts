import type { Knex } from 'knex';
import type { EngineContext } from './context.js';
import type { Settings } from './generated/manifest-types.js';
import { InstanceEngine, type EngineDeps } from './instance-engine.js';
import { EnginePool, defaultEngineThreads } from './main-engine-pool.js';
import { ThreadedEngine } from './main-threaded-engine.js';
import type { BpmnService } from './service.js';
import { type DefinitionRow, HistoryStore, type InstanceRow } from './store.js';

/** An instance's engine on the main thread or in an engine thread: the same advance. */
export type AnyEngine = InstanceEngine | ThreadedEngine;

/**
 * Makes an instance's engine from its saved state: in an engine thread when the definition
 * allows it (context.ts says which), else on this thread. Owns the engine threads.
 */
export class EngineFactory {
  /** Engine threads, started on first use; undefined when settings.engine_threads is 0. */
  private pool: EnginePool | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly engineDeps: Omit<EngineDeps, 'log' | 'maxSteps' | 'retries'>,
    private readonly log: BpmnService['log'],
  ) {
    const threads = settings.engine_threads ?? defaultEngineThreads();
    if (threads > 0) this.pool = new EnginePool(threads, log);
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

  /** Whether the definition's advances run in an engine thread. */
  threaded(context: EngineContext): boolean {
    return this.pool !== undefined && context.threadable;
  }

  /**
   * The engine for `row` as saved. Definitions without service and script tasks run in an engine
   * thread; the others on this thread, where their publishers' transaction and the sandbox are.
   */
  async engine(
    db: Knex | Knex.Transaction,
    row: InstanceRow,
    definition: DefinitionRow,
    context: EngineContext,
  ): Promise<AnyEngine> {
    if (this.threaded(context)) return this.threadedEngine(row, definition);
    const stateRevision = row.state_revision;
    return new InstanceEngine(
      {
        ...this.engineDeps,
        maxSteps: this.settings.max_steps,
        retries: this.settings.retries,
        log: (level, message, fields) => this.log(row.tenant_id, level, message, fields),
      },
      definition.meta,
      context.source,
      { tenantId: row.tenant_id, id: row.id, businessKey: row.business_key },
      stateRevision === null ? undefined : await new HistoryStore(db).stateAt(row.tenant_id, row.id, stateRevision),
      row.variables,
    );
  }

  /** The engine for `row` in an engine thread (only once threaded() said so). */
  threadedEngine(row: InstanceRow, definition: DefinitionRow): ThreadedEngine {
    return new ThreadedEngine(
      this.pool!,
      { tenantId: row.tenant_id, id: row.id, businessKey: row.business_key },
      { id: `${row.tenant_id}/${definition.key}`, xml: definition.xml, meta: definition.meta },
      { maxSteps: this.settings.max_steps, retries: this.settings.retries, keep: this.settings.engine_cache },
      { stateRevision: row.state_revision, variables: row.variables },
      (db, revision) => new HistoryStore(db).stateTextAt(row.tenant_id, row.id, revision),
    );
  }
}
