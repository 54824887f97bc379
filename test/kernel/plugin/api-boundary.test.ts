import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../../kernel/paths.js';

/** The only kernel modules a plugin may import: the plugin API, the error catalogue and the types. */
const ALLOWED = new Set(['kernel/plugin/api.ts', 'kernel/errors.ts', 'kernel/types.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const root = fromRoot();
const files = sources(fromRoot('plugins'));

describe('the boundary between plugins and the kernel', () => {
  it('scans every plugin source file', () => {
    expect(files.length).to.be.greaterThan(40);
  });

  it('lets plugins import only the kernel\'s public API (plugin/api, errors, types), never its internals', () => {
    const offending: string[] = [];
    for (const file of files) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), spec as string)).replace(/\.js$/, '.ts');
        if (target.startsWith('kernel/') && !ALLOWED.has(target)) offending.push(`${relative(root, file)} imports ${target}`);
      }
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });

  it('keeps each plugin to its own folder: a plugin imports of another only its contract (extension point and types)', () => {
    const offending: string[] = [];
    for (const file of files) {
      const own = relative(root, file).split('/')[1];
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), spec as string));
        if (target.startsWith('plugins/') && target.split('/')[1] !== own && !target.endsWith('/contract.js')) offending.push(`${relative(root, file)} imports ${target}`);
      }
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });

  it('has no plugin cast what the kernel gives it: services arrive typed through deps', () => {
    const offending: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (/context\.services/.test(text)) offending.push(`${relative(root, file)} reads context.services`);
      for (const [line] of text.matchAll(/.*\bservices\b.*\bas\s+[A-Z][A-Za-z<>]*.*/g)) offending.push(`${relative(root, file)}: ${line.trim()}`);
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });
});
