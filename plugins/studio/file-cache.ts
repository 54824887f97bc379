import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { totalBytes, type FileMap } from './files.js';
import { WorkspaceStore } from './store.js';

/**
 * The files of recently run revisions, in memory. A revision never changes once written, and a
 * workspace re-created under the same id has another uid, so (tenant, uid, revision) names one
 * set of files forever: a run then costs one small query (which revision is current) instead
 * of reading up to 4 MiB of files each time. Least recently used entries go first past the
 * byte budget.
 */
export class FileCache {
  private readonly entries = new Map<string, { files: FileMap; bytes: number }>();
  /** Per workspace (tenant, id): the revision this instance last found current, to run on before the check answers. */
  private readonly lastSeen = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 64 * 1024 * 1024) {}

  get(key: string): FileMap | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.files;
  }

  set(key: string, files: FileMap): void {
    if (this.entries.has(key)) return;
    const bytes = totalBytes(files) + 64 * Object.keys(files).length;
    if (bytes > this.budgetBytes) return;
    this.entries.set(key, { files, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /**
   * The files of the revision this instance last found current for the workspace, if still
   * cached: a guess, to be confirmed by current() (`key` equal) before anything depends on it.
   */
  guess(tenantId: string, id: string): { key: string; files: FileMap } | undefined {
    const key = this.lastSeen.get(`${tenantId}\u001f${id}`);
    const entry = key === undefined ? undefined : this.entries.get(key);
    return key !== undefined && entry ? { key, files: entry.files } : undefined;
  }

  /** The current files of a workspace (404 when it does not exist in the tenant); `key` names the (tenant, uid, revision). */
  async current(
    db: Knex | Knex.Transaction,
    tenantId: string,
    id: string,
  ): Promise<{ revision: number; files: FileMap; key: string }> {
    const store = new WorkspaceStore(db);
    const head = await store.head(tenantId, id);
    const workspace = `${tenantId}\u001f${id}`;
    if (!head) {
      this.lastSeen.delete(workspace);
      throw new ApiError('not_found', `No workspace "${id}".`);
    }
    const key = `${tenantId}\u001f${head.uid}\u001f${head.revision}`;
    let files = this.get(key);
    if (!files) {
      files = await store.files(tenantId, id, head.revision);
      // The revision row is written with the workspace row in one transaction.
      if (!files) throw new Error(`workspace ${tenantId}/${id} has no revision ${head.revision}`);
      this.set(key, Object.freeze(files) as FileMap);
    }
    // Bounded like the entries: a guess whose files were evicted is worth nothing anyway.
    this.lastSeen.delete(workspace);
    this.lastSeen.set(workspace, key);
    if (this.lastSeen.size > 10_000) this.lastSeen.delete(this.lastSeen.keys().next().value as string);
    return { revision: head.revision, files, key };
  }
}
