import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../../kernel/paths.js';

/** The only kernel modules a plugin may import: the plugin API, the error catalogue and the types. */
const ALLOWED = new Set(['kernel/plugin/api.ts', 'kernel/errors.ts', 'kernel/types.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const root = fromRoot();
const files = sources(fromRoot('plugins'));

/** `call.body as`, `(call.query as`, `call.params.id as`, `call.query[name] as`, `settings as`, `settings.x as`. */
const INPUT_CAST =
  /\bcall\.(?:body|query|params|tenantId|principal)(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])?\)?\s+as\s|\bsettings(?:\.[\w$]+)?\)?\s+as\s/;

describe('the boundary between plugins and the kernel', () => {
  it('scans every plugin source file', () => {
    expect(files.length).to.be.greaterThan(40);
  });

  it("lets plugins import only the kernel's public API (plugin/api, errors, types), never its internals", () => {
    const offending: string[] = [];
    for (const file of files) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), spec as string)).replace(/\.js$/, '.ts');
        if (target.startsWith('kernel/') && !ALLOWED.has(target))
          offending.push(`${relative(root, file)} imports ${target}`);
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
        if (target.startsWith('plugins/') && target.split('/')[1] !== own && !target.endsWith('/contract.js'))
          offending.push(`${relative(root, file)} imports ${target}`);
      }
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });

  it('has no plugin cast what the kernel gives it: services arrive typed through deps', () => {
    const offending: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (/context\.services/.test(text)) offending.push(`${relative(root, file)} reads context.services`);
      for (const [line] of text.matchAll(/.*\bservices\b.*\bas\s+[A-Z][A-Za-z<>]*.*/g))
        offending.push(`${relative(root, file)}: ${line.trim()}`);
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });

  it('has no plugin cast its request input or settings: handlers read the types generated from the manifest', () => {
    const offending: string[] = [];
    for (const file of files) {
      const path = relative(root, file);
      // The console's browser app is no plugin code: its `call` is a request it builds itself.
      if (path.startsWith('plugins/console/app/')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (INPUT_CAST.test(line)) offending.push(`${path}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offending, offending.join('\n')).to.deep.equal([]);
  });
});
