import type { Knex } from 'knex';
import type { ComponentDirectory } from '../components/contract.js';
import type { ResolvedComponent } from './contract.js';

/**
 * The components plugin's directory (components with their secrets decrypted), as this plugin
 * receives it through the components contract's `components.directory` point when the
 * components plugin starts. Without a components plugin nothing is received and no step can
 * reference a component.
 */
export class ComponentLookup {
  private directory: ComponentDirectory | undefined;

  readonly receiver = { receive: (directory: ComponentDirectory): void => void (this.directory = directory) };

  async resolve(
    db: Knex | Knex.Transaction,
    tenantId: string,
    id: string,
  ): Promise<(ResolvedComponent & { stream: string | null }) | undefined> {
    const found = await this.directory?.find(db, tenantId, id);
    return found && { type: found.type, config: { ...found.config }, stream: found.stream };
  }

  /** Marks a processor or sink component failed (with the error) or running again. */
  async observe(
    db: Knex | Knex.Transaction,
    tenantId: string,
    id: string,
    state: 'running' | 'failed',
    error: string | null,
  ): Promise<void> {
    await this.directory?.observe(db, tenantId, id, state, error);
  }

  /** Which of these components are stopped (none without a components plugin: nothing to reference). */
  async stopped(db: Knex | Knex.Transaction, tenantId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0 || !this.directory) return [];
    return this.directory.stopped(db, tenantId, ids);
  }
}
