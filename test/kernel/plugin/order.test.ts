import { expect } from 'chai';
import { orderedPrefix, orderPlugins } from '../../../kernel/plugin/order.js';
import type { ResolvedPlugin } from '../../../kernel/plugin/resolve.js';

/** A loaded plugin as the order sees it: its id and the plugins its manifest requires. */
function plugin(id: string, requires: string[] = []): ResolvedPlugin {
  return {
    definition: { id, manifest: {}, setup: () => ({ handlers: {} }) },
    loaded: { manifest: { id, requires: { plugins: requires } }, file: `${id}.json` },
    settings: {},
    origin: 'builtin',
  } as unknown as ResolvedPlugin;
}

const ids = (plugins: readonly ResolvedPlugin[]): string[] => plugins.map((p) => p.definition.id);

describe('plugin order while the plugins are still loading', () => {
  const list = [plugin('a'), plugin('b', ['d']), plugin('c', ['a']), plugin('d'), plugin('e', ['c'])];

  it('settles the start of the order as far as every plugin it needs is loaded, and the full order begins with it', () => {
    const full = ids(orderPlugins(list));
    expect(full).to.deep.equal(['a', 'd', 'b', 'c', 'e']);
    // b needs d, which loads fourth: until then only a is settled.
    expect(ids(orderedPrefix(list.slice(0, 1)))).to.deep.equal(['a']);
    expect(ids(orderedPrefix(list.slice(0, 2)))).to.deep.equal(['a']);
    expect(ids(orderedPrefix(list.slice(0, 3)))).to.deep.equal(['a']);
    expect(ids(orderedPrefix(list.slice(0, 4)))).to.deep.equal(['a', 'd', 'b', 'c']);
    for (let n = 1; n <= list.length; n++)
      expect(full.slice(0, orderedPrefix(list.slice(0, n)).length)).to.deep.equal(ids(orderedPrefix(list.slice(0, n))));
  });

  it('settles nothing past what the full order will refuse (a duplicate id)', () => {
    expect(ids(orderedPrefix([plugin('a'), plugin('a')]))).to.deep.equal([]);
    expect(() => orderPlugins([plugin('a'), plugin('a')])).to.throw('enabled twice');
  });
});
