import type { KernelConfig } from '../config/types.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';
import { pluginSettings } from '../plugin/settings.js';
import type { KernelMode } from '../types.js';

/** A plugin's checked settings and what its `prepare` returned, kept for its set-up. */
export interface PreparedPlugin {
  settings: Readonly<Record<string, unknown>>;
  prepared: unknown;
}

/**
 * The `prepare` phase (kernel/boot/phases.ts), which needs no database: each plugin's settings are checked against its
 * manifest's schema, and its `prepare` starts work that needs no service (the bootstrap
 * password's hash), so that work runs while the database opens and migrates. A rejected promise
 * is the plugin's to observe at setup or start; until then it is not reported as unhandled.
 */
export function preparePlugins(
  plugins: readonly ResolvedPlugin[],
  config: Readonly<KernelConfig>,
  mode: KernelMode,
  newDatabase: boolean | undefined,
): Map<string, PreparedPlugin> {
  const prepared = new Map<string, PreparedPlugin>();
  for (const plugin of plugins) {
    const id = plugin.definition.id;
    const settings = pluginSettings(id, plugin.loaded.manifest.settings, plugin.settings, plugin.origin === 'builtin');
    const result = plugin.definition.prepare?.({ id, settings, profile: config.profile, mode, newDatabase });
    if (result instanceof Promise) result.catch(() => undefined);
    prepared.set(id, { settings, prepared: result });
  }
  return prepared;
}
