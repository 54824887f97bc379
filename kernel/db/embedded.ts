import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { fromRoot } from '../paths.js';
import { baselineWasmOnly, pgliteWasmModule, type WasmModule } from './pglite-code.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** What every PGlite of ours opens with: the start parameters, and the module compiled once per process. */
async function pgliteOptions(): Promise<{ startParams: string[]; pgliteWasmModule?: WasmModule }> {
  const module = await pgliteWasmModule();
  return { startParams: startParams(), ...(module ? { pgliteWasmModule: module } : {}) };
}

/** Where the initialised cluster of the installed PGlite version is kept. */
function templateDir(): string {
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string };
  return fromRoot('node_modules', '.cache', 'runtime-kernel', `pglite-${pkg.version}-wal1mb-onedb`);
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
    const db = new (pglite().PGlite)(join(building, 'data'), { ...(await pgliteOptions()), initDbStartParams: ['--wal-segsize=1'] });
    try {
      await db.waitReady;
      // The kernel uses the one database `postgres`; initdb's template0 and template1 (only ever
      // copied by CREATE DATABASE, which the kernel never runs) are half of the cluster's files,
      // which every new data directory would copy and every start would scan.
      await db.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
      await db.exec('DROP DATABASE template0');
      await db.exec('DROP DATABASE template1');
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
 * Copies a kept cluster into a new data directory: every file at once on libuv's thread pool
 * (the copies overlap one another and leave the main thread free), PG_VERSION last, since its
 * presence is what makes a directory a cluster to open: a copy cut short is started again.
 */
async function copyCluster(from: string, to: string): Promise<void> {
  const copyDir = async (source: string, target: string): Promise<void> => {
    await mkdir(target, { recursive: true });
    const entries = await readdir(source, { withFileTypes: true });
    await Promise.all(
      entries
        .filter((entry) => !PROCESS_FILES.has(entry.name) && !(source === from && entry.name === 'PG_VERSION'))
        .map((entry) => (entry.isDirectory() ? copyDir(join(source, entry.name), join(target, entry.name)) : copyFile(join(source, entry.name), join(target, entry.name)))),
    );
  };
  await copyDir(from, to);
  await copyFile(join(from, 'PG_VERSION'), join(to, 'PG_VERSION'));
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

/** Template work still running after the call that started it returned (see keepMigratedCopy). */
const templateWork = new Set<Promise<void>>();

/** Resolves once no template is being finished in the background (closing a database waits for it). */
export async function templateWorkSettled(): Promise<void> {
  while (templateWork.size > 0) await Promise.all([...templateWork]);
}

/** Opens and closes the cluster in `dir` once, in a process of its own (db/recover-copy.ts says why). */
function recoverCopy(dir: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./recover-copy.js', import.meta.url)), dir, JSON.stringify(startParams())], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`recovering the template copy failed (exit ${code}): ${stderr.slice(0, 500)}`))));
  });
}

/**
 * Keeps the just-migrated cluster in `dir` as the template of `key` (checkpointed first, so its
 * files hold every change), replacing the templates of older migration sets. Built under a
 * temporary name and renamed into place, like the initdb template. The copy is made before this
 * returns (the cluster must not change under it); its recovery and rename finish in the
 * background (`templateWorkSettled`), off the first start's way to ready.
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
      if (dirname(path) === dir && name.startsWith(STAGING_PREFIX)) return true;
      return wal !== undefined && dirname(path) === walDir && segment.test(name) && (name < wal.redo || name > wal.current);
    });
  } catch {
    // The cache is not writable (or the database failed): the next fresh start migrates again.
    rmSync(building, { recursive: true, force: true });
    return;
  }
  // The rest runs while the kernel goes on starting: the copy is apart from the running cluster.
  const finishing = finishTemplate(building, target).finally(() => templateWork.delete(finishing));
  templateWork.add(finishing);
}

/**
 * A copy of a running cluster starts with crash recovery; opened and closed once, the template is
 * shut down cleanly and every cluster made from it starts without one. Then it takes its place,
 * and older migration sets' templates go, but not the few newest: kernels with other plugin sets
 * (tests, several profiles) may be copying one right now.
 */
async function finishTemplate(building: string, target: string): Promise<void> {
  try {
    await recoverCopy(building);
    renameSync(building, target);
    const others = migratedTemplates().filter((path) => path !== target);
    others.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const old of others.slice(KEPT_MIGRATED_TEMPLATES)) rmSync(old, { recursive: true, force: true });
  } catch {
    // Another process kept it first, or the copy could not be recovered: the next fresh start migrates again.
    rmSync(building, { recursive: true, force: true });
  }
}

/** Where a process stages a copy inside a data directory before it holds the directory's lock. */
const STAGING_PREFIX = '.staging-';

/** A copy of a migrated template under way (or done) in a staging folder of a new data directory. */
interface StagedCopy {
  template: string;
  folder: string;
  /** True once the copy is complete. */
  copied: Promise<boolean>;
}

const staged = new Map<string, StagedCopy>();

/**
 * Starts copying, into a staging folder of the new data directory `dir`, the migrated template
 * used most recently (its folder's time is set at each use), before the plugins load and the migration set is known: the copy (on the
 * thread pool) then overlaps the module loading instead of following it. openEmbedded uses it
 * when its template is the one the plugins name (the usual case: one installation, one plugin
 * set), and discards it otherwise. Nothing for a directory that holds a cluster.
 */
export function stageNewestTemplate(dir: string): void {
  if (staged.has(dir) || existsSafe(() => join(dir, 'PG_VERSION'))) return;
  const newest = migratedTemplates()
    .filter((path) => existsSafe(() => join(path, 'PG_VERSION')))
    .map((path) => ({ path, at: statSync(path).mtimeMs }))
    .sort((a, b) => b.at - a.at)[0];
  if (!newest) return;
  const folder = join(dir, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  // Made here, not on the thread pool with the rest: the copy is under way (and visible) once this returns.
  try {
    mkdirSync(folder, { recursive: true });
  } catch {
    return;
  }
  const copied = copyCluster(newest.path, folder).then(
    () => true,
    () => false,
  );
  staged.set(dir, { template: newest.path, folder, copied });
}

/**
 * Moves the staged copy into `dir` when it is of `template` and complete (PG_VERSION last, as a
 * copy does); otherwise removes it. True when `dir` now holds the cluster. Called with the data
 * directory's lock held; staging folders left by a process that died are removed too.
 */
async function takeStagedCopy(dir: string, template: string): Promise<boolean> {
  const copy = staged.get(dir);
  staged.delete(dir);
  let taken = false;
  if (copy && copy.template !== template) void copy.copied.then(() => rm(copy.folder, { recursive: true, force: true })).catch(() => undefined);
  if (copy && copy.template === template && (await copy.copied)) {
    try {
      const entries = readdirSync(copy.folder).filter((name) => name !== 'PG_VERSION');
      for (const name of entries) renameSync(join(copy.folder, name), join(dir, name));
      renameSync(join(copy.folder, 'PG_VERSION'), join(dir, 'PG_VERSION'));
      taken = true;
    } catch {
      // The directory held part of a cluster (a copy cut short): copied over in full instead.
    }
  }
  // What is left: this copy if it was not taken, folders of processes that died while staging.
  for (const name of readdirSync(dir)) {
    if (name.startsWith(STAGING_PREFIX) && (!copy || copy.template === template || join(dir, name) !== copy.folder)) void rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
  }
  return taken;
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
    return { pglite: new PGlite({ ...(await pgliteOptions()), ...(kept ? { loadDataDir: new Blob([readFileSync(join(kept, 'data.tar'))]) } : {}) }) };
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
      for (const entry of readdirSync(dir)) if (!PROCESS_FILES.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    }
  }
  await takeStagedCopy(dir, '');
  const kept = await template();
  if (kept) await copyCluster(join(kept, 'data'), dir);
  const db = new PGlite(dir, await pgliteOptions());
  return { pglite: db, ...(kept && migrationKey ? { keepMigrated: () => keepMigratedCopy(db, dir, migrationKey) } : {}) };
}

/** Marks a template as the one used most recently (stageNewestTemplate's guess). */
function markUsed(template: string): void {
  try {
    const now = new Date();
    utimesSync(template, now, now);
  } catch {
    // A read-only installation: the guess stays the template built last.
  }
}

function existsSafe(path: () => string): boolean {
  try {
    return existsSync(path());
  } catch {
    return false;
  }
}
