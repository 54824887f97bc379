/* Runs on the main thread: stands for an instance's engine that lives in an engine thread. */
import type { Knex } from 'knex';
import type { DefinitionMeta } from './definitions.js';
import type { Advance, Input, InstanceRef } from './instance-engine.js';
import { ThreadGone, type EnginePool } from './main-engine-pool.js';
import type { AdvanceReply } from './thread-engine.js';

export interface ThreadedDefinition {
  /** tenant/key: the thread's cache key for the definition's context. */
  id: string;
  xml: string;
  meta: DefinitionMeta;
}

/**
 * An instance's engine in an engine thread, with the same advance() as InstanceEngine. The first
 * advance sends the saved state (read only then); once the service keeps it after a commit
 * (keptAt), the next advance names the revision instead and the thread uses the engine it kept.
 * When the thread no longer has it (evicted, or the thread died and was replaced), or the thread
 * dies during the advance, the advance runs again from the saved state: the database has it.
 */
export class ThreadedEngine {
  private keptRevision: number | undefined;

  constructor(
    private readonly pool: EnginePool,
    private readonly instance: InstanceRef,
    private readonly definition: ThreadedDefinition,
    private readonly settings: { maxSteps: number; retries: number; keep: number },
    /** The saved state this engine starts from (null: none, a fresh instance) and the variables of its row. */
    private from: { stateRevision: number | null; variables: Record<string, unknown> },
    private readonly loadState: (db: Knex | Knex.Transaction, stateRevision: number) => Promise<unknown>,
  ) {}

  /** The thread kept this engine as of `row` (committed): its next advance starts there. */
  keptAt(row: { revision: number; state_revision: number | null; variables: Record<string, unknown> }): void {
    this.keptRevision = row.revision;
    this.from = { stateRevision: row.state_revision, variables: row.variables };
  }

  /** `db` reads the saved state when the thread needs it: a snapshot never changes, so no lock is needed for it. */
  async advance(
    input: Input,
    db: Knex | Knex.Transaction,
    options: { variablesOfFirst?: boolean; keepAs: number },
  ): Promise<Advance> {
    const { stateRevision, variables } = this.from;
    const kept = this.keptRevision;
    this.keptRevision = undefined;
    const send = async (from: 'kept' | 'state'): Promise<AdvanceReply> =>
      this.pool.request(this.instance.id, {
        instance: this.instance,
        definition: this.definition,
        input,
        variablesOfFirst: Boolean(options.variablesOfFirst),
        from:
          from === 'kept'
            ? { kind: 'kept', revision: kept! }
            : {
                kind: 'state',
                state: stateRevision === null ? undefined : await this.loadState(db, stateRevision),
                variables,
              },
        keepAs: options.keepAs,
        ...this.settings,
      });
    let reply: AdvanceReply | undefined;
    if (kept !== undefined) {
      try {
        reply = await send('kept');
      } catch (err) {
        if (!(err instanceof ThreadGone)) throw err;
      }
      if (reply?.kind === 'missing') reply = undefined;
    }
    for (let attempt = 0; !reply; attempt++) {
      try {
        reply = await send('state');
      } catch (err) {
        // A thread that died while running this advance: once more on its replacement.
        if (!(err instanceof ThreadGone) || attempt >= 1) throw err;
      }
    }
    if (reply.kind === 'failed') throw new Error(`The engine thread failed: ${reply.message}`);
    if (reply.kind === 'missing') throw new Error('The engine thread answered a state with "missing".');
    return reply.advance;
  }
}
