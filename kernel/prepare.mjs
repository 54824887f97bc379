// npm's `prepare` (run by `npm install` and `npm ci` in this checkout): does at install time what
// the first `npm start` would otherwise do before it serves, so that first start is as fast as
// every later one: compiles the TypeScript, builds the front ends (package.json "assetBuilds"),
// and makes the embedded database's kept clusters (the initialised one and the one migrated to
// this migration set, under node_modules/.cache/runtime-kernel) by migrating a scratch data
// directory once. Each step is skipped when its output is fresh. Nothing here fails the install:
// what could not be done is said, and `npm start` does it then, as it always did.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureAssets } from './ensure-assets.mjs';
import { ensureBuilt } from './ensure-build.mjs';

const started = Date.now();

/** Migrates a scratch embedded data directory with the local profile's plugins, then removes it. */
async function keepEmbeddedTemplates(distBoot) {
  const dataDir = mkdtempSync(join(tmpdir(), 'runtime-prepare-'));
  try {
    const { loadConfig } = await import(pathToFileURL(join(distBoot, '..', 'config', 'load.js')).href);
    const { createKernel } = await import(pathToFileURL(distBoot).href);
    const env = { ...process.env, RUNTIME_PROFILE: 'local', RUNTIME_DATA_DIR: dataDir };
    // The scratch database's own admin is thrown away with it: no generated password to print.
    env.RUNTIME_ADMIN_PASSWORD = `prepare-${process.pid}-${started}-scratch`;
    process.env.RUNTIME_ADMIN_PASSWORD = env.RUNTIME_ADMIN_PASSWORD;
    delete env.DATABASE_URL;
    const config = loadConfig({ env, overrides: { log: { level: 'warn' } } });
    // Maintenance mode: opened, migrated and set up, never listening. Closing waits until the
    // migrated copy is kept (db/embedded.ts: templateWorkSettled).
    const kernel = await createKernel({ config, mode: 'maintenance' });
    await kernel.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));

try {
  // An install without the development dependencies has no compiler: nothing to do ahead.
  if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) throw new Error('no TypeScript compiler installed');
  const main = ensureBuilt('kernel/main.js');
  ensureAssets();
  await keepEmbeddedTemplates(join(main, '..', 'boot.js'));
  process.stderr.write(`prepared in ${((Date.now() - started) / 1000).toFixed(1)} s (npm start builds nothing more)\n`);
} catch (err) {
  process.stderr.write(
    `prepare: ${err instanceof Error ? err.message : String(err)}; npm start will finish the work instead\n`,
  );
}
