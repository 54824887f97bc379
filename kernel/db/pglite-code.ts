import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGliteOptions } from '@electric-sql/pglite';

/** A compiled WebAssembly module (the project's type libraries name no WebAssembly global). */
export type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

const require = createRequire(import.meta.url);

/**
 * PostgreSQL compiled to WebAssembly is one 9 MB module. V8 first compiles what runs with its
 * baseline compiler (Liftoff) and then recompiles hot functions with its optimiser (TurboFan);
 * PostgreSQL's functions are so large that the optimiser cost more than it gave back: measured
 * on this kernel, it tripled the CPU time of the first migrations (1.8 s → 0.4 s without it),
 * added 70 MB of RSS, and still left steady-state queries slower per CPU second while it
 * compiled in the background. Set before PGlite's module is compiled; PGlite is the only
 * sizeable WebAssembly in the process.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

let compiled: Promise<WasmModule | undefined> | undefined;

/**
 * PGlite's WebAssembly module, compiled once per process. Asked for as soon as the kernel knows
 * it runs embedded (before the plugins load), so V8 compiles it on its background threads while
 * the main thread loads the plugins' modules, instead of after them. Undefined when the file is
 * not where this PGlite version keeps it: PGlite then compiles it itself, as it always did.
 */
export function pgliteWasmModule(): Promise<WasmModule | undefined> {
  compiled ??= (async () => {
    baselineWasmOnly();
    const file = join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm');
    return wasm.compile(await readFile(file));
  })().catch(() => undefined);
  return compiled;
}
