import { PGlite } from '@electric-sql/pglite';
import { baselineWasmOnly } from './pglite-code.js';

/**
 * Run as a process of its own by db/templates.ts (`recoverCopy`): opens and closes a copied
 * cluster once, so its crash recovery runs here and the copy is left shut down cleanly. A second
 * PGlite inside the kernel left ~37 MB of WebAssembly memory behind it (an idle kernel at 222 MB
 * RSS instead of 185 after its first start), and a worker thread's still ~13 MB; a process
 * returns all of it when it exits. Arguments: the cluster's directory, the start parameters (JSON).
 */
const [dir, params] = process.argv.slice(2);
baselineWasmOnly();
const copy = new PGlite(dir as string, { startParams: JSON.parse(params ?? '[]') as string[] });
try {
  await copy.waitReady;
} finally {
  await copy.close();
}
