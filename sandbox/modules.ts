/**
 * ES module resolution over a run's `files` map: an import is a path relative to the importing
 * file (`./x.js`, `../lib/y.js`), resolved within the map; anything else — a bare name (`fs`), an
 * absolute path, a URL, a path climbing out of the workspace — is an error inside the script.
 */

export class ModuleError extends Error {}

/** Joins `requested` onto the directory of `base`; null when it is not a relative path inside the workspace. */
export function resolveRelative(base: string, requested: string): string | null {
  if (!requested.startsWith('./') && !requested.startsWith('../')) return null;
  const parts = base.split('/').slice(0, -1);
  for (const segment of requested.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(segment);
    }
  }
  return parts.length ? parts.join('/') : null;
}

/** The normalizer QuickJS calls with the importing module's name and the import specifier. */
export function normalizeModule(files: Readonly<Record<string, string>>, base: string, requested: string): string {
  const resolved = resolveRelative(base, requested);
  if (resolved === null)
    throw new ModuleError(
      `cannot import "${requested}": only files of the workspace can be imported, by relative path (./file.js)`,
    );
  for (const candidate of [resolved, `${resolved}.js`, `${resolved}.mjs`, `${resolved}/index.js`]) {
    if (Object.hasOwn(files, candidate)) return candidate;
  }
  throw new ModuleError(`cannot import "${requested}" from ${base}: no file ${resolved} in the workspace`);
}

/** The loader: a module's source; a `.json` file becomes a module whose default export is its value. */
export function loadModule(files: Readonly<Record<string, string>>, name: string): string {
  if (!Object.hasOwn(files, name)) throw new ModuleError(`no file ${name} in the workspace`);
  const source = files[name];
  if (typeof source !== 'string') throw new ModuleError(`${name} is not text`);
  if (name.endsWith('.json')) {
    try {
      JSON.parse(source);
    } catch (err) {
      throw new ModuleError(`${name} is not valid JSON: ${(err as Error).message}`);
    }
    return `export default ${source.trim()};\n`;
  }
  return source;
}
