import type { Knex } from 'knex';
import type { FileMap } from '../files.js';
import type { FileChanges } from '../handlers.js';
import type { Collab } from './service.js';

type CollabInput = ConstructorParameters<typeof Collab>[0];

/**
 * The collaborative editing service, imported at its first use (a collab socket, a file write
 * or a workspace deletion) rather than at boot: Yjs, lib0 and y-protocols are some thirty
 * modules that a start would load for nothing. Until then this instance holds no room, so the
 * collab events other instances publish have nothing here to apply to.
 */
export class LazyCollab implements FileChanges {
  private loading: Promise<Collab> | undefined;
  private loaded: Collab | undefined;
  private started = false;

  constructor(private readonly input: CollabInput) {}

  /** The service, loaded once (and started if the plugin has started). */
  load(): Promise<Collab> {
    this.loading ??= import('./service.js').then(({ Collab: Service }) => {
      const service = new Service(this.input);
      this.loaded = service;
      if (this.started) service.start();
      return service;
    });
    return this.loading;
  }

  start(): void {
    this.started = true;
    // Still loading: load() starts it once loaded.
    this.loaded?.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.loading) await (await this.loading).stop();
  }

  async filesWritten(
    db: Knex | Knex.Transaction,
    tenantId: string,
    workspaceId: string,
    files: FileMap,
    revision: number,
  ): Promise<void> {
    await (await this.load()).filesWritten(db, tenantId, workspaceId, files, revision);
  }

  async workspaceDeleted(db: Knex | Knex.Transaction, tenantId: string, workspaceId: string): Promise<void> {
    await (await this.load()).workspaceDeleted(db, tenantId, workspaceId);
  }
}
