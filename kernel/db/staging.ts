import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { copyCluster, existsSafe, STAGING_PREFIX } from './cluster-copy.js';
import { migratedTemplates } from './templates.js';

/*
 * A new data directory's cluster copied early: before the plugins load (and so before the
 * migration set is known), on a guess that is right in the usual case.
 */

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
export async function takeStagedCopy(dir: string, template: string): Promise<boolean> {
  const copy = staged.get(dir);
  staged.delete(dir);
  let taken = false;
  if (copy && copy.template !== template)
    void copy.copied.then(() => rm(copy.folder, { recursive: true, force: true })).catch(() => undefined);
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
    if (name.startsWith(STAGING_PREFIX) && (!copy || copy.template === template || join(dir, name) !== copy.folder))
      void rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
  }
  return taken;
}
