import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { engineContext, type EngineContext } from './context.js';
import { DefinitionStore, type DefinitionRow } from './store.js';

/**
 * Deployed definitions as this kernel read them, and the engine contexts made from them (each
 * once per definition). A definition's row never changes once stored, so neither goes stale.
 */
export class DefinitionCache {
  private readonly rows = new Map<string, DefinitionRow>();
  private readonly contexts = new Map<string, Promise<EngineContext>>();

  async definition(db: Knex | Knex.Transaction, tenantId: string, key: string): Promise<DefinitionRow> {
    const cached = this.rows.get(`${tenantId}/${key}`);
    if (cached) return cached;
    const found = await new DefinitionStore(db).get(tenantId, key);
    if (!found) throw new ApiError('not_found', `No definition "${key}".`);
    this.rows.set(`${tenantId}/${key}`, found);
    return found;
  }

  /** The definition as engines are built from it (context.ts), made once per definition. */
  context(definition: DefinitionRow): Promise<EngineContext> {
    const id = `${definition.tenant_id}/${definition.key}`;
    let context = this.contexts.get(id);
    if (!context) {
      context = engineContext(definition.xml, definition.meta.process_id);
      this.contexts.set(id, context);
      context.catch(() => this.contexts.delete(id));
    }
    return context;
  }
}
