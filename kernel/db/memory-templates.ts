import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { existsSafe } from './cluster-copy.js';
import { markUsed, templateDir } from './templates.js';

/*
 * A database in memory (`data_dir: memory`: the test suite's hundreds of kernels, the benches)
 * loads its cluster from an archive. Loading the bare initdb archive and then running every
 * migration cost about 0.7 s of CPU per start; each migration set's migrated cluster is
 * therefore kept as an archive too, and a later start of the same set loads it instead.
 */

/**
 * Archives kept (the newest used): the test suite alone boots kernels of some forty migration
 * sets, and with fewer kept they pushed each other out and migrated again. Compressed (~3 MB
 * each instead of ~17; 70 ms of CPU to expand), so keeping that many stays small.
 */
const KEPT_ARCHIVES = 64;

/** Where the archive of migration set `key` is kept. */
export function memoryArchiveFile(key: string): string {
  return `${templateDir()}-memory-${key}.tar.gz`;
}

/** The migrated archive of migration set `key`, or undefined when none is kept (or it cannot be read). */
export function memoryTemplate(key: string): Buffer | undefined {
  let file: string;
  let compressed: Buffer;
  try {
    file = memoryArchiveFile(key);
    compressed = readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    const archive = gunzipSync(compressed);
    markUsed(file);
    return archive;
  } catch {
    // Damaged (a disk that filled up, say): gone, so the next start keeps a whole one again.
    rmSync(file, { force: true });
    return undefined;
  }
}

/**
 * Keeps the just-migrated cluster in memory as the archive of `key`. Written under a temporary
 * name and renamed into place, so a kernel starting meanwhile reads a whole archive or none; the
 * oldest archives beyond the newest few go (a kernel reading one keeps its open file).
 */
export async function keepMemoryTemplate(db: PGliteInstance, key: string): Promise<void> {
  const target = memoryArchiveFile(key);
  if (existsSafe(() => target)) return;
  const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    // Written to the files before they are read into the archive, so a load replays no WAL.
    await db.exec('CHECKPOINT');
    const archive = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    // The fastest level: a better ratio cost twice the time for a tenth less.
    writeFileSync(building, gzipSync(archive, { level: 1 }));
    renameSync(building, target);
    pruneArchives(target);
  } catch {
    // The cache is not writable: the next start in memory migrates again.
    rmSync(building, { force: true });
  }
}

function pruneArchives(newest: string): void {
  const dir = dirname(newest);
  const prefix = `${basename(templateDir())}-memory-`;
  const archives = readdirSync(dir)
    .filter((entry) => entry.startsWith(prefix) && /^[0-9a-f]+\.tar\.gz$/.test(entry.slice(prefix.length)))
    .map((entry) => join(dir, entry))
    .filter((path) => path !== newest);
  archives.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of archives.slice(KEPT_ARCHIVES - 1)) rmSync(old, { force: true });
}
