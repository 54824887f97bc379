import { coreExtensions } from '../plugin/api.js';
import type { ExtensionRegistry } from '../plugin/extensions.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';
import type { KernelMode, KernelServices, PluginInstance } from '../types.js';
import { servicesFor } from './plugin-services.js';
import type { PreparedPlugin } from './prepare.js';

export interface SetUpPlugin {
  id: string;
  instance: PluginInstance;
}

/**
 * The `setup` phase (kernel/boot/phases.ts): each plugin in dependency order gets its settings (checked at prepare), what
 * its `prepare` returned and exactly the services it declared, and gives back its handlers, the
 * extension points it offers and its contributions to points, which the registry keeps.
 */
export async function setUpPlugins(
  plugins: readonly ResolvedPlugin[],
  services: KernelServices,
  registry: ExtensionRegistry,
  mode: KernelMode,
  prepared: ReadonlyMap<string, PreparedPlugin>,
): Promise<SetUpPlugin[]> {
  for (const point of Object.values(coreExtensions)) registry.offer('kernel', point);
  const done: SetUpPlugin[] = [];
  for (const plugin of plugins) {
    const id = plugin.definition.id;
    const own = prepared.get(id);
    if (!own) throw new Error(`plugin ${id} was not prepared`);
    const instance = await plugin.definition.setup({
      id,
      manifest: plugin.loaded.manifest,
      settings: own.settings,
      services: servicesFor(plugin, services, registry),
      prepared: own.prepared,
      mode,
    });
    for (const point of instance.offers ?? []) registry.offer(id, point);
    for (const contribution of instance.contributions ?? []) registry.add(id, contribution);
    done.push({ id, instance });
  }
  registry.check();
  return done;
}
