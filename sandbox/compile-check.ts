import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { sandboxError, type GuestError } from './errors.js';
import { installModuleLoader, type LoaderState } from './module-loader.js';
import type { SandboxError } from './types.js';

/** Memory one check may use: parsing a 256 KiB source takes a small fraction of it. */
const CHECK_MEMORY_BYTES = 32 * 1024 * 1024;

let module: Promise<QuickJSWASMModule> | undefined;

/**
 * Compiles a script's modules without running any of it, in the same interpreter that runs them
 * (QuickJS), so what it accepts is exactly what will run: the entry and every module it imports,
 * resolved as a run resolves them (modules.ts). Answers the first syntax (or import) error with its
 * file and line, or undefined when everything compiles. Nothing of the script executes, so it is
 * safe on the main thread: its own small interpreter, loaded on first use, a fresh runtime per check.
 */
export async function compileCheck(
  files: Readonly<Record<string, string>> | string,
  entry = 'main.js',
): Promise<SandboxError | undefined> {
  const sources = typeof files === 'string' ? { [entry]: files } : files;
  if (!Object.hasOwn(sources, entry)) return { message: `no file ${entry} to compile`, file: entry };
  module ??= newQuickJSWASMModule(RELEASE_SYNC);
  const runtime = (await module).newRuntime();
  try {
    runtime.setMemoryLimit(CHECK_MEMORY_BYTES);
    // The run's own loader: a refused import fails with its reason (which file, why), as in a run.
    const state: LoaderState = { files: sources, refusals: new Map() };
    installModuleLoader(runtime, () => state);
    const context = runtime.newContext();
    try {
      const result = context.evalCode(sources[entry] as string, entry, { type: 'module', compileOnly: true });
      if (!result.error) {
        result.value.dispose();
        return undefined;
      }
      const guest = context.dump(result.error) as GuestError | string | undefined;
      result.error.dispose();
      // Refuse only what is certainly the script's fault: a syntax error, an import of nothing.
      // Anything else the interpreter says here (its own trouble) lets the script through: a
      // check must never refuse a script that would run.
      if (!guest || typeof guest !== 'object' || typeof guest.message !== 'string') return undefined;
      const certain =
        guest.name === 'SyntaxError' || /cannot import|no file |could not load module/.test(guest.message);
      if (!certain) return undefined;
      const refused = state.refusedImport;
      // A static import refused while linking has no stack: where its specifier is written.
      if (refused && guest.message.includes(refused.message))
        return {
          ...sandboxError(guest),
          file: refused.file,
          ...(refused.line !== undefined ? { line: refused.line } : {}),
        };
      return sandboxError(guest);
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}
