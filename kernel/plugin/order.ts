import { PluginLoadError, type ResolvedPlugin } from './resolve.js';

/**
 * Orders plugins so each comes after the plugins it requires; a missing or disabled
 * requirement, a duplicate id or a cycle stops boot.
 */
export function orderPlugins(plugins: readonly ResolvedPlugin[]): ResolvedPlugin[] {
  return visitInOrder(plugins, (id, required) => {
    throw new PluginLoadError(`plugin ${id} requires plugin ${required}, which is not enabled`);
  });
}

/** Stops the walk of a partial list at the first plugin that needs one not loaded yet. */
class NotLoadedYet extends Error {}

/**
 * The first plugins of the order while the list is still being loaded (a prefix of it, in the
 * order the list would be loaded): as far as the walk gets before it needs a plugin not loaded
 * yet, or meets what orderPlugins will refuse. The full order begins with the same plugins.
 */
export function orderedPrefix(loaded: readonly ResolvedPlugin[]): ResolvedPlugin[] {
  const ordered: ResolvedPlugin[] = [];
  try {
    visitInOrder(
      loaded,
      () => {
        throw new NotLoadedYet();
      },
      ordered,
    );
  } catch {
    // Not loaded yet, or an error orderPlugins reports once everything is loaded.
  }
  return ordered;
}

/** Depth first in list order, each plugin after those it requires (`ordered` fills as it goes). */
function visitInOrder(
  plugins: readonly ResolvedPlugin[],
  missing: (id: string, required: string) => never,
  ordered: ResolvedPlugin[] = [],
): ResolvedPlugin[] {
  const byId = new Map<string, ResolvedPlugin>();
  for (const p of plugins) {
    if (byId.has(p.definition.id)) throw new PluginLoadError(`plugin ${p.definition.id} is enabled twice`);
    byId.set(p.definition.id, p);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: ResolvedPlugin, chain: string[]): void => {
    const id = p.definition.id;
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting')
      throw new PluginLoadError(`plugins require each other in a cycle: ${[...chain, id].join(' → ')}`);
    state.set(id, 'visiting');
    for (const required of p.loaded.manifest.requires?.plugins ?? []) {
      const dep = byId.get(required);
      if (!dep) missing(id, required);
      visit(dep, [...chain, id]);
    }
    state.set(id, 'done');
    ordered.push(p);
  };
  for (const p of plugins) visit(p, []);
  return ordered;
}
