import { coreExtensions } from '../plugin/api.js';
import type { ExtensionRegistry } from '../plugin/extensions.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';
import { pluginSettings } from '../plugin/settings.js';
import type { KernelMode, KernelServices, PluginInstance } from '../types.js';
import { servicesFor } from './plugin-services.js';

export interface SetUpPlugin {
  id: string;
  instance: PluginInstance;
}

/**
 * Phase 3, set up: each plugin in dependency order gets its settings (checked against its
 * manifest's schema) and exactly the services it declared, and gives back its handlers, the
 * extension points it offers and its contributions to points, which the registry keeps.
 */
export async function setUpPlugins(plugins: readonly ResolvedPlugin[], services: KernelServices, registry: ExtensionRegistry, mode: KernelMode): Promise<SetUpPlugin[]> {
  for (const point of Object.values(coreExtensions)) registry.offer('kernel', point);
  const done: SetUpPlugin[] = [];
  for (const plugin of plugins) {
    const id = plugin.definition.id;
    const instance = await plugin.definition.setup({
      id,
      manifest: plugin.loaded.manifest,
      settings: pluginSettings(id, plugin.loaded.manifest.settings, plugin.settings),
      services: servicesFor(plugin, services, registry),
      mode,
    });
    for (const point of instance.offers ?? []) registry.offer(id, point);
    for (const contribution of instance.contributions ?? []) registry.add(id, contribution);
    done.push({ id, instance });
  }
  registry.check();
  return done;
}
