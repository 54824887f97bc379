// Shared by the npm entry points (start.mjs, admin.mjs): builds the TypeScript when the compiled
// output is missing or older than a source file, so a fresh clone runs with `npm start` alone.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (item.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Returns the path of `dist/<relative>`, building first when the output is stale; exits 1 when it cannot. */
export function ensureBuilt(relative) {
  const entry = join(root, 'dist', relative);
  const stale =
    !existsSync(entry) || ['kernel', 'plugins'].some((dir) => newestSource(join(root, dir)) > statSync(entry).mtimeMs);
  if (stale) {
    process.stderr.write('building (tsc)...\n');
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const result = spawnSync(tsc, ['-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
    if (result.status !== 0 && !existsSync(entry)) {
      process.stderr.write('the build failed; run `npm install` first\n');
      process.exit(1);
    }
  }
  return entry;
}
