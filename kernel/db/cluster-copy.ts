import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Copying PostgreSQL clusters (a kept template into a new data directory, a running cluster
 * into a template): only what a copy may hold, in an order that never leaves half a cluster
 * looking whole.
 */

/** Files of a running cluster that belong to that one process, never to a copy. */
export const PROCESS_FILES = new Set(['.runtime.lock', 'postmaster.pid', 'postmaster.opts']);

/**
 * Copies a cluster (directories and plain files only, as initdb makes them): a third cheaper
 * than fs.cpSync, which checks both sides of every one of its thousand files.
 */
export function copyTree(from: string, to: string, skip: (path: string) => boolean = () => false): void {
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
export async function copyCluster(from: string, to: string): Promise<void> {
  const copyDir = async (source: string, target: string): Promise<void> => {
    await mkdir(target, { recursive: true });
    const entries = await readdir(source, { withFileTypes: true });
    await Promise.all(
      entries
        .filter((entry) => !PROCESS_FILES.has(entry.name) && !(source === from && entry.name === 'PG_VERSION'))
        .map((entry) =>
          entry.isDirectory()
            ? copyDir(join(source, entry.name), join(target, entry.name))
            : copyFile(join(source, entry.name), join(target, entry.name)),
        ),
    );
  };
  await copyDir(from, to);
  await copyFile(join(from, 'PG_VERSION'), join(to, 'PG_VERSION'));
}

/** Where a process stages a copy inside a data directory before it holds the directory's lock. */
export const STAGING_PREFIX = '.staging-';

/** Whether the path exists; false too when the path cannot even be computed (no PGlite installed). */
export function existsSafe(path: () => string): boolean {
  try {
    return existsSync(path());
  } catch {
    return false;
  }
}
