import type { KernelConfig } from '../config/types.js';
import { orderPlugins } from '../plugin/order.js';
import { resolveDefinition, resolvePlugin, type ResolvedPlugin } from '../plugin/resolve.js';
import type { PluginDefinition } from '../types.js';

/** Phase 1, resolve: the configured plugins and those given in code, ordered by what they require. */
export async function resolvePlugins(config: Readonly<KernelConfig>, inline: readonly PluginDefinition[]): Promise<ResolvedPlugin[]> {
  const resolved: ResolvedPlugin[] = [];
  for (const ref of config.plugins) resolved.push(await resolvePlugin(ref, config.settings));
  for (const definition of inline) resolved.push(resolveDefinition(definition, config.settings));
  return orderPlugins(resolved);
}
