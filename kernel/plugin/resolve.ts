import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT, fromRoot } from '../paths.js';
import type { PluginRef } from '../config/types.js';
import type { PluginDefinition } from '../types.js';
import type { LoadedManifest } from '../manifest/types.js';
import { checkManifest, loadManifestFile } from '../manifest/load.js';

export interface ResolvedPlugin {
  definition: PluginDefinition;
  loaded: LoadedManifest;
  settings: Record<string, unknown>;
  /** Where the plugin came from: `builtin` or the module it was loaded from. */
  origin: string;
}

export class PluginLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PluginLoadError';
  }
}

/** The entry file of an external plugin: a folder (package.json main, index.js) or a package. */
function entryOf(module: string): string {
  const path = isAbsolute(module) ? module : resolve(PROJECT_ROOT, module);
  if (existsSync(path) && statSync(path).isDirectory()) {
    const pkgFile = join(path, 'package.json');
    const main = existsSync(pkgFile)
      ? (JSON.parse(readFileSync(pkgFile, 'utf8')) as { main?: string }).main
      : undefined;
    for (const candidate of [main, 'index.js', 'index.mjs']) {
      if (candidate && existsSync(join(path, candidate))) return join(path, candidate);
    }
    throw new PluginLoadError(`plugin folder ${module} has no entry file (package.json main, index.js or index.mjs)`);
  }
  if (existsSync(path)) return path;
  try {
    return createRequire(join(PROJECT_ROOT, 'package.json')).resolve(module);
  } catch (err) {
    throw new PluginLoadError(`plugin ${module} is neither a folder nor an installed package`, { cause: err });
  }
}

function isDefinition(value: unknown): value is PluginDefinition {
  const v = value as Partial<PluginDefinition> | undefined;
  return (
    !!v &&
    typeof v.id === 'string' &&
    typeof v.setup === 'function' &&
    (typeof v.manifest === 'string' || typeof v.manifest === 'object')
  );
}

async function importDefinition(entry: string, label: string): Promise<PluginDefinition> {
  let mod: { default?: unknown; plugin?: unknown };
  try {
    mod = (await import(pathToFileURL(entry).href)) as { default?: unknown; plugin?: unknown };
  } catch (err) {
    throw new PluginLoadError(`plugin ${label} could not be imported from ${entry}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const definition = mod.default ?? mod.plugin;
  if (!isDefinition(definition))
    throw new PluginLoadError(
      `plugin ${label}: ${entry} must export default a plugin definition { id, manifest, setup }`,
    );
  return definition;
}

function loadManifestOf(definition: PluginDefinition, baseDir: string): LoadedManifest {
  if (typeof definition.manifest === 'object')
    return checkManifest(definition.manifest, `${definition.id} (inline manifest)`);
  const file = isAbsolute(definition.manifest) ? definition.manifest : resolve(baseDir, definition.manifest);
  return loadManifestFile(file);
}

/** A plugin given in code (embedding, tests); a relative manifest path is taken from the project root. */
export function resolveDefinition(
  definition: PluginDefinition,
  settingsById: Readonly<Record<string, Record<string, unknown>>>,
): ResolvedPlugin {
  if (!isDefinition(definition))
    throw new PluginLoadError('a plugin given in code must be a definition { id, manifest, setup }');
  const loaded = loadManifestOf(definition, PROJECT_ROOT);
  if (loaded.manifest.id !== definition.id)
    throw new PluginLoadError(`plugin ${definition.id}: its manifest ${loaded.file} has id "${loaded.manifest.id}"`);
  return { definition, loaded, settings: { ...(settingsById[definition.id] ?? {}) }, origin: 'code' };
}

/** Loads one configured plugin: built-ins by id from plugins/<id>, others from a folder or package. */
export async function resolvePlugin(
  ref: PluginRef,
  settingsById: Readonly<Record<string, Record<string, unknown>>>,
): Promise<ResolvedPlugin> {
  const builtin = typeof ref === 'string';
  const entry = builtin
    ? fromRoot(import.meta.url.includes('/dist/') ? 'dist' : '', 'plugins', ref, 'index.js')
    : entryOf(ref.module);
  if (builtin && !existsSync(entry))
    throw new PluginLoadError(`no built-in plugin named "${ref}" (looked for ${entry})`);
  const definition = await importDefinition(entry, builtin ? ref : ref.module);
  if (builtin && definition.id !== ref)
    throw new PluginLoadError(`plugins/${ref} exports a plugin with id "${definition.id}"`);
  const loaded = loadManifestOf(definition, builtin ? PROJECT_ROOT : dirname(entry));
  if (loaded.manifest.id !== definition.id) {
    throw new PluginLoadError(`plugin ${definition.id}: its manifest ${loaded.file} has id "${loaded.manifest.id}"`);
  }
  const settings = { ...(settingsById[definition.id] ?? {}), ...(builtin ? {} : (ref.settings ?? {})) };
  return { definition, loaded, settings, origin: builtin ? 'builtin' : ref.module };
}
