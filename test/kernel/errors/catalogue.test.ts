import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { ERROR_CATALOGUE } from '../../../kernel/errors.js';
import { fromRoot } from '../../../kernel/paths.js';
import type { Manifest } from '../../../kernel/manifest/types.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * One catalogue: every code the source throws is the kernel's or declared in the throwing
 * plugin's manifest (`error_codes`), so an undeclared code fails here before it reaches a client.
 */
describe('the error catalogue', () => {
  it("has every code thrown in kernel/ and plugins/ declared: the kernel's own, or the plugin's manifest", () => {
    const undeclared: string[] = [];
    for (const file of [...sources(fromRoot('kernel')), ...sources(fromRoot('plugins'))]) {
      const path = relative(fromRoot(), file);
      const plugin = path.startsWith('plugins/') ? path.split('/')[1] : undefined;
      const declared = new Set(Object.keys(ERROR_CATALOGUE));
      if (plugin) {
        const manifest = JSON.parse(readFileSync(fromRoot('manifests', `${plugin}.json`), 'utf8')) as Manifest;
        for (const e of manifest.error_codes ?? []) declared.add(e.code);
      }
      for (const [, code] of readFileSync(file, 'utf8').matchAll(/new ApiError\(\s*'([a-z_]+)'/g)) {
        if (!declared.has(code as string)) undeclared.push(`${path}: ${code}`);
      }
    }
    expect(undeclared, undeclared.join('\n')).to.deep.equal([]);
  });

  it("holds only what the kernel itself answers: domain codes live in their plugins' manifests", () => {
    for (const domain of ['promotion_gate_failed', 'too_many_queries', 'build_unavailable', 'incompatible_schema'])
      expect(ERROR_CATALOGUE).to.not.have.property(domain);
  });
});
