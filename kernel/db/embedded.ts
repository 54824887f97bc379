import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { copyCluster, existsSafe, PROCESS_FILES } from './cluster-copy.js';
import { baselineWasmOnly } from './pglite-code.js';
import { pglite, pgliteOptions } from './pglite-options.js';
import { takeStagedCopy } from './staging.js';
import { keepMigratedCopy, markUsed, migratedDir, template } from './templates.js';
import { keepMemoryTemplate, memoryTemplate } from './memory-templates.js';

// The templates' and staging's own exports, where their callers (connect.ts, tests, the bench) find them.
export { stageNewestTemplate } from './staging.js';
export { migratedTemplates, templateKept, templateWorkSettled } from './templates.js';

export interface EmbeddedDatabase {
  pglite: PGliteInstance;
  /**
   * Set when this cluster was created here and no migrated template of its migration set is
   * kept yet: called once the migrations have run, keeps a copy of the migrated cluster.
   */
  keepMigrated?: () => Promise<void>;
}

/**
 * Opens the embedded database in `dir` (created when missing), or in memory without one. A new
 * cluster starts as a copy of a kept template rather than running initdb: the one already
 * migrated to `migrationKey` when there is one (the migrations then find nothing to do), else
 * the bare initdb one, and the first migrated cluster of each migration set is kept for the next.
 * A database in memory does the same from an archive (memory-templates.ts).
 */
export async function openEmbedded(dir: string | undefined, migrationKey?: string): Promise<EmbeddedDatabase> {
  baselineWasmOnly();
  const { PGlite } = pglite();
  if (!dir) {
    const migrated = migrationKey ? memoryTemplate(migrationKey) : undefined;
    if (migrated) return { pglite: new PGlite({ ...(await pgliteOptions()), loadDataDir: new Blob([migrated]) }) };
    const kept = await template();
    const db = new PGlite({
      ...(await pgliteOptions()),
      ...(kept ? { loadDataDir: new Blob([readFileSync(join(kept, 'data.tar'))]) } : {}),
    });
    return {
      pglite: db,
      ...(kept && migrationKey ? { keepMigrated: () => keepMemoryTemplate(db, migrationKey) } : {}),
    };
  }
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'PG_VERSION'))) return { pglite: new PGlite(dir, await pgliteOptions()) };
  const migrated = migrationKey ? existsSafe(() => join(migratedDir(migrationKey), 'PG_VERSION')) : false;
  if (migrated && migrationKey) {
    try {
      if (!(await takeStagedCopy(dir, migratedDir(migrationKey)))) await copyCluster(migratedDir(migrationKey), dir);
      markUsed(migratedDir(migrationKey));
      return { pglite: new PGlite(dir, await pgliteOptions()) };
    } catch {
      // Removed while being copied: start from the initdb template as if it had never been kept.
      for (const entry of readdirSync(dir))
        if (!PROCESS_FILES.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    }
  }
  await takeStagedCopy(dir, '');
  const kept = await template();
  if (kept) await copyCluster(join(kept, 'data'), dir);
  const db = new PGlite(dir, await pgliteOptions());
  return {
    pglite: db,
    ...(kept && migrationKey ? { keepMigrated: () => keepMigratedCopy(db, dir, migrationKey) } : {}),
  };
}
