import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';
import { fromRoot } from '../paths.js';
import { copyTree, existsSafe, STAGING_PREFIX } from './cluster-copy.js';
import { pglite, pgliteOptions, startParams } from './pglite-options.js';

/*
 * The kept clusters that spare a new embedded database its initdb and its migrations: the
 * initdb template of the installed PGlite version, and one migrated template per migration set
 * (see openEmbedded in embedded.ts for how they are used).
 */

const require = createRequire(import.meta.url);

/** Where the initialised cluster of the installed PGlite version is kept. */
export function templateDir(): string {
  const pkg = JSON.parse(
    readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8'),
  ) as { version: string };
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
    return readdirSync(dirname(templateDir()))
      .filter((entry) => entry.startsWith(prefix) && !entry.slice(prefix.length).includes('.'))
      .map((entry) => join(dirname(templateDir()), entry));
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
export async function template(): Promise<string | undefined> {
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
    const db = new (pglite().PGlite)(join(building, 'data'), {
      ...(await pgliteOptions()),
      initDbStartParams: ['--wal-segsize=1'],
    });
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

/**
 * Where the cluster already migrated to the migration set `key` is kept (see openEmbedded). The
 * key names the migrations and their code, so any change of the set makes a new template.
 */
export function migratedDir(key: string): string {
  return `${templateDir()}-migrated-${key}`;
}

/** Migrated templates of other migration sets kept beside the newest one. */
const KEPT_MIGRATED_TEMPLATES = 3;

/** Template work still running after the call that started it returned (see keepMigratedCopy). */
const templateWork = new Set<Promise<void>>();

/** Resolves once no template is being finished in the background (closing a database waits for it). */
export async function templateWorkSettled(): Promise<void> {
  while (templateWork.size > 0) await Promise.all([...templateWork]);
}

/** Opens and closes the cluster in `dir` once, in a process of its own (db/recover-copy.ts says why). */
function recoverCopy(dir: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./recover-copy.js', import.meta.url)), dir, JSON.stringify(startParams())],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`recovering the template copy failed (exit ${code}): ${stderr.slice(0, 500)}`)),
    );
  });
}

/**
 * Keeps the just-migrated cluster in `dir` as the template of `key` (checkpointed first, so its
 * files hold every change), replacing the templates of older migration sets. Built under a
 * temporary name and renamed into place, like the initdb template. The copy is made before this
 * returns (the cluster must not change under it); its recovery and rename finish in the
 * background (`templateWorkSettled`), off the first start's way to ready.
 */
export async function keepMigratedCopy(db: PGliteInstance, dir: string, key: string): Promise<void> {
  const target = migratedDir(key);
  if (existsSync(join(target, 'PG_VERSION'))) return;
  const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await db.exec('CHECKPOINT');
    // The WAL a copy needs runs from the checkpoint just made to the current position; the
    // segments before are spent and those after are blank ones kept for reuse (a few MB to copy
    // into every new data directory for nothing).
    const wal = (
      await db.query<{ redo: string; current: string }>(
        'SELECT redo_wal_file AS redo, pg_walfile_name(pg_current_wal_lsn()) AS current FROM pg_control_checkpoint()',
      )
    ).rows[0];
    const walDir = join(dir, 'pg_wal');
    const segment = /^[0-9A-F]{24}$/;
    copyTree(dir, building, (path) => {
      const name = basename(path);
      if (dirname(path) === dir && name.startsWith(STAGING_PREFIX)) return true;
      return (
        wal !== undefined && dirname(path) === walDir && segment.test(name) && (name < wal.redo || name > wal.current)
      );
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

/** Marks a template as the one used most recently (stageNewestTemplate's guess). */
export function markUsed(template: string): void {
  try {
    const now = new Date();
    utimesSync(template, now, now);
  } catch {
    // A read-only installation: the guess stays the template built last.
  }
}
