import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { markUsed, templateDir } from './templates.js';

/*
 * A database in memory (`data_dir: memory`: the test suite's hundreds of kernels, the benches)
 * loads its cluster from an archive. Loading the bare initdb archive and then running every
 * migration cost about 0.7 s of CPU per start; each migration set's migrated cluster is
 * therefore kept as an archive too, and a later start of the same set loads it instead.
 */

/** Archives of other migration sets kept beside the newest: test kernels with other plugin sets run side by side. */
const KEPT_ARCHIVES = 12;

function archiveFile(key: string): string {
  return `${templateDir()}-memory-${key}.tar`;
}

/** The migrated archive of migration set `key`, or undefined when none is kept (or it cannot be read). */
export function memoryTemplate(key: string): Buffer | undefined {
  try {
    const file = archiveFile(key);
    const archive = readFileSync(file);
    markUsed(file);
    return archive;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the just-migrated cluster in memory as the archive of `key`. Written under a temporary
 * name and renamed into place, so a kernel starting meanwhile reads a whole archive or none; the
 * oldest archives beyond the newest few go (a kernel reading one keeps its open file).
 */
export async function keepMemoryTemplate(db: PGliteInstance, key: string): Promise<void> {
  const target = archiveFile(key);
  if (kept(target)) return;
  const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    // Written to the files before they are read into the archive, so a load replays no WAL.
    await db.exec('CHECKPOINT');
    writeFileSync(building, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    renameSync(building, target);
    pruneArchives(target);
  } catch {
    // The cache is not writable: the next start in memory migrates again.
    rmSync(building, { force: true });
  }
}

function kept(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function pruneArchives(newest: string): void {
  const dir = dirname(newest);
  const prefix = `${basename(templateDir())}-memory-`;
  const archives = readdirSync(dir)
    .filter((entry) => entry.startsWith(prefix) && /^[0-9a-f]+\.tar$/.test(entry.slice(prefix.length)))
    .map((entry) => join(dir, entry))
    .filter((path) => path !== newest);
  archives.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of archives.slice(KEPT_ARCHIVES - 1)) rmSync(old, { force: true });
}
