import type { QuickJSRuntime } from 'quickjs-emscripten';
import { loadModule, normalizeModule } from './modules.js';

/** The running job's side of the loader: its files, and what it refused so far. */
export interface LoaderState {
  files: Readonly<Record<string, string>>;
  refusals: Map<string, string>;
  refusedImport?: { message: string; file: string; line: number | undefined };
}

/**
 * Lets the script import the workspace's other files, and nothing else (modules.ts decides what
 * resolves). Installed once per session and reading the running job through `current`, because
 * a reset session (snapshot.ts) keeps the loader the fresh session had. A refused import is
 * answered with a token the loader then fails on, because QuickJS drops a normalizer's own error
 * for a dynamic import(); for a static one, which fails while linking with no stack,
 * `state.refusedImport` keeps where the specifier is written.
 */
export function installModuleLoader(runtime: QuickJSRuntime, current: () => LoaderState | undefined): void {
  const running = (): LoaderState => {
    const state = current();
    if (!state) throw new Error('no script is running');
    return state;
  };
  runtime.setModuleLoader(
    (name) => {
      try {
        const { files, refusals } = running();
        const refused = refusals.get(name);
        if (refused !== undefined) return { error: new Error(refused) };
        return loadModule(files, name);
      } catch (err) {
        return { error: err as Error };
      }
    },
    (base, requested) => {
      const state = running();
      const { files, refusals } = state;
      // QuickJS drops a normalizer's error for a dynamic import(); the loader reports it instead.
      try {
        return normalizeModule(files, base, requested);
      } catch (err) {
        const message = (err as Error).message;
        const token = `<refused import ${refusals.size + 1}>`;
        refusals.set(token, message);
        // A static import fails while linking, with no stack: remember where the specifier is written.
        state.refusedImport ??= { message, file: base, line: lineOf(files[base], requested) };
        return token;
      }
    },
  );
}

/** The 1-based line where `specifier` is written (quoted) in `source`. */
function lineOf(source: string | undefined, specifier: string): number | undefined {
  if (source === undefined) return undefined;
  const lines = source.split('\n');
  const index = lines.findIndex((line) => line.includes(`'${specifier}'`) || line.includes(`"${specifier}"`));
  return index < 0 ? undefined : index + 1;
}
