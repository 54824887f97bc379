import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';
import type { ResolvedComponent } from './contract.js';

type Db = Knex | Knex.Transaction;

/**
 * A configured component as the components plugin lends it (its `ComponentDirectory`): only the
 * fields a workflow uses, typed here structurally so this plugin imports nothing of it.
 */
interface DirectoryRecord {
  type: string;
  stream: string | null;
  config: Readonly<Record<string, unknown>>;
}

interface Directory {
  find(db: Db, tenantId: string, id: string): Promise<DirectoryRecord | undefined>;
}

/**
 * The components plugin hands its directory (components with their secrets decrypted) to every
 * receiver contributed to `components.directory` when it starts. Without a components plugin
 * that offers it, nothing is received and no step can reference a component.
 */
export const componentDirectoryReceivers = extensionPoint<{ receive(directory: Directory): void }>('components.directory');

export class ComponentLookup {
  private directory: Directory | undefined;

  readonly receiver = { receive: (directory: Directory): void => void (this.directory = directory) };

  async resolve(db: Db, tenantId: string, id: string): Promise<(ResolvedComponent & { stream: string | null }) | undefined> {
    const found = await this.directory?.find(db, tenantId, id);
    return found && { type: found.type, config: { ...found.config }, stream: found.stream };
  }
}
