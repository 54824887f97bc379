import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fromRoot } from '../../kernel/paths.js';

describe('sandbox: a module of its own', () => {
  const dir = fromRoot('sandbox');
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, 'utf8') }));

  it('imports nothing from kernel/ or plugins/, and only node built-ins, quickjs-emscripten and its own files', () => {
    expect(sources.length).to.be.at.least(5);
    const offending: string[] = [];
    for (const { name, text } of sources) {
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const allowed = spec!.startsWith('./') || spec!.startsWith('node:') || spec === 'quickjs-emscripten';
        if (!allowed) offending.push(`${name} imports ${spec}`);
      }
    }
    expect(offending).to.deep.equal([]);
  });

  it('never uses node:vm or vm2', () => {
    for (const { name, text } of sources) {
      expect(text, name).to.not.match(/['"](node:)?vm2?['"]/);
    }
  });
});
