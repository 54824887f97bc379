import { PluginLoadError, type ResolvedPlugin } from './resolve.js';

/**
 * Orders plugins so each comes after the plugins it requires; a missing or disabled
 * requirement, a duplicate id or a cycle stops boot.
 */
export function orderPlugins(plugins: readonly ResolvedPlugin[]): ResolvedPlugin[] {
  const byId = new Map<string, ResolvedPlugin>();
  for (const p of plugins) {
    if (byId.has(p.definition.id)) throw new PluginLoadError(`plugin ${p.definition.id} is enabled twice`);
    byId.set(p.definition.id, p);
  }
  const ordered: ResolvedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: ResolvedPlugin, chain: string[]): void => {
    const id = p.definition.id;
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new PluginLoadError(`plugins require each other in a cycle: ${[...chain, id].join(' → ')}`);
    state.set(id, 'visiting');
    for (const required of p.loaded.manifest.requires?.plugins ?? []) {
      const dep = byId.get(required);
      if (!dep) throw new PluginLoadError(`plugin ${id} requires plugin ${required}, which is not enabled`);
      visit(dep, [...chain, id]);
    }
    state.set(id, 'done');
    ordered.push(p);
  };
  for (const p of plugins) visit(p, []);
  return ordered;
}
