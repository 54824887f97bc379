import type { KernelConfig } from '../config/types.js';
import { orderedPrefix, orderPlugins } from '../plugin/order.js';
import { resolveDefinition, resolvePlugin, type ResolvedPlugin } from '../plugin/resolve.js';
import type { PluginDefinition } from '../types.js';

/**
 * The `resolve` phase (kernel/boot/phases.ts): the configured plugins and those given in code, ordered by what they require.
 * `onPlaced` hears of each plugin, in that order, as soon as its place is settled (it and every
 * plugin before it are loaded), while the later ones still load: a server database migrates
 * meanwhile (kernel/boot.ts).
 */
export async function resolvePlugins(
  config: Readonly<KernelConfig>,
  inline: readonly PluginDefinition[],
  onPlaced?: (plugin: ResolvedPlugin) => void,
): Promise<ResolvedPlugin[]> {
  const resolved: ResolvedPlugin[] = [];
  let placed = 0;
  const place = (): void => {
    if (!onPlaced) return;
    const prefix = orderedPrefix(resolved);
    for (; placed < prefix.length; placed++) onPlaced(prefix[placed] as ResolvedPlugin);
  };
  for (const ref of config.plugins) {
    resolved.push(await resolvePlugin(ref, config.settings));
    place();
  }
  for (const definition of inline) resolved.push(resolveDefinition(definition, config.settings));
  const ordered = orderPlugins(resolved);
  if (onPlaced) for (; placed < ordered.length; placed++) onPlaced(ordered[placed] as ResolvedPlugin);
  return ordered;
}
