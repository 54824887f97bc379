import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { fromRoot } from '../paths.js';

const require = createRequire(import.meta.url);

/**
 * PGlite's CommonJS build, the one knex-pglite itself loads (importing the ES module as well
 * would load PGlite's code twice); required on first use, so a kernel on PostgreSQL never loads it.
 */
function pglite(): typeof import('@electric-sql/pglite') {
  return require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
}

/**
 * PGlite runs PostgreSQL in one process, so its shared buffers are ordinary memory of ours and
 * the whole area is touched at start: the default 128 MB alone put an idle kernel above 300 MB
 * RSS. 16 MB keeps the kernel's tables cached; reads beyond them come from the OS page cache.
 */
function startParams(): string[] {
  return [...pglite().PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'max_wal_size=1GB', '-c', 'min_wal_size=80MB'];
}

/**
 * PostgreSQL compiled to WebAssembly is one 9 MB module. V8 first compiles what runs with its
 * baseline compiler (Liftoff) and then recompiles hot functions with its optimiser (TurboFan);
 * PostgreSQL's functions are so large that the optimiser cost more than it gave back: measured
 * on this kernel, it tripled the CPU time of the first migrations (1.8 s → 0.4 s without it),
 * added 70 MB of RSS, and still left steady-state queries slower per CPU second while it
 * compiled in the background. Set before PGlite compiles its module; PGlite is the only sizeable
 * WebAssembly in the process.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/** Where the initialised cluster of the installed PGlite version is kept. */
function templateDir(): string {
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string };
  return fromRoot('node_modules', '.cache', 'runtime-kernel', `pglite-${pkg.version}-wal1mb`);
}

/** True once the template of the installed PGlite version is kept (the bench reports it). */
export function templateKept(): boolean {
  return existsSafe(() => join(templateDir(), 'data.tar'));
}

/** The migrated templates kept (the bench reports and removes them to measure a first start). */
export function migratedTemplates(): string[] {
  try {
    const prefix = `${basename(templateDir())}-migrated-`;
    return readdirSync(dirname(templateDir())).filter((entry) => entry.startsWith(prefix) && !entry.slice(prefix.length).includes('.')).map((entry) => join(dirname(templateDir()), entry));
  } catch {
    return [];
  }
}

/**
 * A fresh cluster costs PGlite an initdb (bootstrap, catalogs, system views, collations: seconds
 * of WebAssembly and a second PostgreSQL heap). Every fresh cluster of one PGlite version is the
 * same, so the first one is kept: `data/` to copy into a new data directory, `data.tar` to load
 * into memory. Built once per installation under a temporary name and renamed into place, so
 * processes starting together never see half of it. Returns undefined when it cannot be kept
 * (a read-only installation): PGlite then runs initdb itself, as it always did.
 */
async function template(): Promise<string | undefined> {
  let dir: string;
  try {
    dir = templateDir();
  } catch {
    return undefined;
  }
  if (existsSync(join(dir, 'data.tar'))) return dir;
  const building = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(building, { recursive: true });
    // 1 MB WAL segments rather than 16: a fresh cluster's one segment is most of what each new
    // data directory would copy. The WAL kept between checkpoints stays as large (startParams).
    const db = new (pglite().PGlite)(join(building, 'data'), { startParams: startParams(), initDbStartParams: ['--wal-segsize=1'] });
    try {
      await db.waitReady;
      // Written to the files before they are read back into the archive.
      await db.exec('CHECKPOINT');
      writeFileSync(join(building, 'data.tar'), Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await db.close();
    }
    renameSync(building, dir);
  } catch {
    // Another process finished first (the rename found its copy), or the cache is not writable.
    rmSync(building, { recursive: true, force: true });
  }
  return existsSync(join(dir, 'data.tar')) ? dir : undefined;
}

/** Files of a running cluster that belong to that one process, never to a copy. */
const PROCESS_FILES = new Set(['.runtime.lock', 'postmaster.pid', 'postmaster.opts']);

/**
 * Copies a cluster (directories and plain files only, as initdb makes them): a third cheaper
 * than fs.cpSync, which checks both sides of every one of its thousand files.
 */
function copyTree(from: string, to: string, skip: (path: string) => boolean = () => false): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (PROCESS_FILES.has(entry.name) || skip(join(from, entry.name))) continue;
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name), skip);
    else copyFileSync(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * Where the cluster already migrated to the migration set `key` is kept (see openEmbedded). The
 * key names the migrations and their code, so any change of the set makes a new template.
 */
function migratedDir(key: string): string {
  return `${templateDir()}-migrated-${key}`;
}

/** Migrated templates of other migration sets kept beside the newest one. */
const KEPT_MIGRATED_TEMPLATES = 3;

export interface EmbeddedDatabase {
  pglite: PGliteInstance;
  /**
   * Set when this cluster was created here and no migrated template of its migration set is
   * kept yet: called once the migrations have run, keeps a copy of the migrated cluster.
   */
  keepMigrated?: () => Promise<void>;
}

/**
 * Keeps the just-migrated cluster in `dir` as the template of `key` (checkpointed first, so its
 * files hold every change), replacing the templates of older migration sets. Built under a
 * temporary name and renamed into place, like the initdb template.
 */
async function keepMigratedCopy(db: PGliteInstance, dir: string, key: string): Promise<void> {
  const target = migratedDir(key);
  if (existsSync(join(target, 'PG_VERSION'))) return;
  const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await db.exec('CHECKPOINT');
    // The WAL a copy needs runs from the checkpoint just made to the current position; the
    // segments before are spent and those after are blank ones kept for reuse (a few MB to copy
    // into every new data directory for nothing).
    const wal = (await db.query<{ redo: string; current: string }>('SELECT redo_wal_file AS redo, pg_walfile_name(pg_current_wal_lsn()) AS current FROM pg_control_checkpoint()')).rows[0];
    const walDir = join(dir, 'pg_wal');
    const segment = /^[0-9A-F]{24}$/;
    copyTree(dir, building, (path) => {
      const name = basename(path);
      return wal !== undefined && dirname(path) === walDir && segment.test(name) && (name < wal.redo || name > wal.current);
    });
    // A copy of a running cluster starts with crash recovery; opened and closed once here, the
    // template is shut down cleanly and every cluster made from it starts without one.
    const copy = new (pglite().PGlite)(building, { startParams: startParams() });
    try {
      await copy.waitReady;
    } finally {
      await copy.close();
    }
    renameSync(building, target);
    // Older migration sets' templates go, but not the few newest: kernels with other plugin
    // sets (tests, several profiles) may be copying one right now.
    const others = migratedTemplates().filter((path) => path !== target);
    others.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const old of others.slice(KEPT_MIGRATED_TEMPLATES)) rmSync(old, { recursive: true, force: true });
  } catch {
    // Another process kept it first, or the cache is not writable: the next fresh start migrates again.
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Opens the embedded database in `dir` (created when missing), or in memory without one. A new
 * cluster starts as a copy of a kept template rather than running initdb: the one already
 * migrated to `migrationKey` when there is one (the migrations then find nothing to do), else
 * the bare initdb one, and the first migrated cluster of each migration set is kept for the next.
 */
export async function openEmbedded(dir: string | undefined, migrationKey?: string): Promise<EmbeddedDatabase> {
  baselineWasmOnly();
  const { PGlite } = pglite();
  if (!dir) {
    const kept = await template();
    return { pglite: new PGlite({ startParams: startParams(), ...(kept ? { loadDataDir: new Blob([readFileSync(join(kept, 'data.tar'))]) } : {}) }) };
  }
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'PG_VERSION'))) return { pglite: new PGlite(dir, { startParams: startParams() }) };
  const migrated = migrationKey ? existsSafe(() => join(migratedDir(migrationKey), 'PG_VERSION')) : false;
  if (migrated && migrationKey) {
    try {
      copyTree(migratedDir(migrationKey), dir);
      return { pglite: new PGlite(dir, { startParams: startParams() }) };
    } catch {
      // Removed while being copied: start from the initdb template as if it had never been kept.
      for (const entry of readdirSync(dir)) if (!PROCESS_FILES.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    }
  }
  const kept = await template();
  if (kept) copyTree(join(kept, 'data'), dir);
  const db = new PGlite(dir, { startParams: startParams() });
  return { pglite: db, ...(kept && migrationKey ? { keepMigrated: () => keepMigratedCopy(db, dir, migrationKey) } : {}) };
}

function existsSafe(path: () => string): boolean {
  try {
    return existsSync(path());
  } catch {
    return false;
  }
}
