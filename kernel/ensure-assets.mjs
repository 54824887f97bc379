// Front-end builds that ship with the product (package.json "assetBuilds": the npm script that
// makes each, its sources and its output folder): `npm start` and `npm test` run a build when its
// output is missing or older than a source file, as ensure-build.mjs does for the TypeScript. A
// build whose script this checkout lacks is skipped; a failed build is reported and the service
// starts anyway (what serves the output says it is missing).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestFile(dir, skip) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (skip.has(path) || item.name === 'node_modules' || item.name.startsWith('.')) continue;
    if (item.isDirectory()) newest = Math.max(newest, newestFile(path, skip));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the output is missing or older than a source (the output folder itself is no source). */
export function isStale(build) {
  const sources = resolve(root, build.sources);
  const output = resolve(root, build.output);
  const marker = join(output, build.marker ?? 'index.html');
  if (!existsSync(sources)) return false;
  if (!existsSync(marker)) return true;
  return newestFile(sources, new Set([output])) > statSync(marker).mtimeMs;
}

function runScript(script) {
  const npm = process.env.npm_execpath;
  const [command, args] =
    npm && /\.[cm]?js$/.test(npm) ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]];
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
}

/** Runs each stale build; returns the scripts that failed. */
export function ensureAssets() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const failed = [];
  for (const build of pkg.assetBuilds ?? []) {
    if (!pkg.scripts?.[build.script] || !isStale(build)) continue;
    process.stderr.write(`building (npm run ${build.script})...\n`);
    const result = runScript(build.script);
    if (result.status !== 0) {
      process.stderr.write(`npm run ${build.script} failed; ${build.output} is not up to date\n`);
      failed.push(build.script);
    }
  }
  return failed;
}

// `node kernel/ensure-assets.mjs` (npm's pretest): a failed build fails the step.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (ensureAssets().length > 0) process.exit(1);
}
