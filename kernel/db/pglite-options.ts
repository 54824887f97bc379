import { createRequire } from 'node:module';
import { pgliteWasmModule, type WasmModule } from './pglite-code.js';

/* How every PGlite of ours is loaded and started (the database itself, and the templates). */

const require = createRequire(import.meta.url);

/**
 * PGlite's CommonJS build, the one knex-pglite itself loads (importing the ES module as well
 * would load PGlite's code twice); required on first use, so a kernel on PostgreSQL never loads it.
 */
export function pglite(): typeof import('@electric-sql/pglite') {
  return require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
}

/**
 * PGlite runs PostgreSQL in one process, so its shared buffers are ordinary memory of ours and
 * the whole area is touched at start: the default 128 MB alone put an idle kernel above 300 MB
 * RSS. 16 MB keeps the kernel's tables cached; reads beyond them come from the OS page cache.
 */
export function startParams(): string[] {
  return [
    ...pglite().PGlite.defaultStartParams,
    '-c',
    'shared_buffers=16MB',
    '-c',
    'max_wal_size=1GB',
    '-c',
    'min_wal_size=80MB',
  ];
}

/** What every PGlite of ours opens with: the start parameters, and the module compiled once per process. */
export async function pgliteOptions(): Promise<{ startParams: string[]; pgliteWasmModule?: WasmModule }> {
  const module = await pgliteWasmModule();
  return { startParams: startParams(), ...(module ? { pgliteWasmModule: module } : {}) };
}
