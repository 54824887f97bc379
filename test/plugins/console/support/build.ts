import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../../../kernel/paths.js';

const APP = fromRoot('plugins', 'console', 'app');
const BUILT_INDEX = join(APP, 'dist', 'index.html');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** True when the built app is missing or older than one of its sources. */
export function consoleBuildStale(): boolean {
  if (!existsSync(BUILT_INDEX)) return true;
  const built = statSync(BUILT_INDEX).mtimeMs;
  const sources = Math.max(
    newest(join(APP, 'src')),
    newest(join(APP, 'public')),
    statSync(join(APP, 'index.html')).mtimeMs,
    statSync(join(APP, 'vite.config.ts')).mtimeMs,
    statSync(join(APP, 'precompress.ts')).mtimeMs,
    statSync(join(APP, 'inline-css.ts')).mtimeMs,
  );
  return sources > built;
}

/** Builds the console app (Vite) when it is stale, so browser tests always run the current sources. */
export function ensureConsoleBuilt(): void {
  if (!consoleBuildStale()) return;
  execFileSync(
    process.execPath,
    [
      fromRoot('node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      join(APP, 'vite.config.ts'),
      '--logLevel',
      'warn',
    ],
    { stdio: 'inherit', cwd: fromRoot() },
  );
}
