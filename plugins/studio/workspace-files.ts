import type { Knex } from 'knex';
import type { WorkspaceFileReader } from './contract.js';
import type { FileCache } from './file-cache.js';
import { WorkspaceStore } from './store.js';

/**
 * The studio's reader of workspace files for other plugins (`studio.workspace-files`): the
 * current revision through the run cache, a pinned one from its stored revision (also cached,
 * under the workspace's uid: a revision never changes once written).
 */
export function workspaceFileReader(cache: FileCache): WorkspaceFileReader {
  return {
    async read(db: Knex | Knex.Transaction, tenantId: string, workspaceId: string, revision?: number) {
      const store = new WorkspaceStore(db);
      const head = await store.head(tenantId, workspaceId);
      if (!head) return undefined;
      const wanted = revision ?? head.revision;
      if (wanted > head.revision) return undefined;
      const key = `${tenantId}\u001f${head.uid}\u001f${wanted}`;
      let files = cache.get(key);
      if (!files) {
        files = await store.files(tenantId, workspaceId, wanted);
        if (!files) return undefined;
        cache.set(key, Object.freeze(files));
      }
      return { revision: wanted, files };
    },
  };
}
