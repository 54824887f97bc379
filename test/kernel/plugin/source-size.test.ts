import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../../kernel/paths.js';

/**
 * Small files with one job: past this many lines a file is doing several things, and two people
 * changing it at once collide. Split it at its seams (see kernel/jobs/, plugins/workflows/worker/).
 */
const MAX_LINES = 350;

/** What counts as source: code and stylesheets (not manifests, docs or images). */
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css)$/;

/** Written by a program, not by people: their size follows the API, and nobody edits them. */
/** A plugin's types generated from its manifest (npm run types:generate): written by a program, checked by their own test. */
const isGenerated = (file: string): boolean => GENERATED.has(file) || /^plugins\/[^/]+\/generated\//.test(file);
const GENERATED = new Set([
  // `npm run console:types` writes both from the live OpenAPI document (test/plugins/console/support/api-types.ts).
  'plugins/console/app/src/api/operations.ts',
  'plugins/console/app/src/api/schema.d.ts',
]);

/**
 * Files still over the limit, each with why it is not split yet. An entry goes once its file is
 * split: the last test fails while an entry names a file that is back under the limit (or gone).
 */
const ALLOWED_OVER: Record<string, string> = {};

/** Folders below the roots that hold no source of ours. */
const SKIPPED = new Set(['node_modules', 'dist']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIPPED.has(e.name) ? [] : sources(join(dir, e.name));
    return SOURCE.test(e.name) ? [join(dir, e.name)] : [];
  });
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const root = fromRoot();
const sizes = new Map(
  ['kernel', 'plugins', 'sandbox']
    .flatMap((top) => sources(fromRoot(top)))
    .map((file) => [relative(root, file), lineCount(readFileSync(file, 'utf8'))] as const),
);

describe(`source files stay small (at most ${MAX_LINES} lines)`, () => {
  it('scans the kernel, the plugins and the sandbox', () => {
    for (const top of ['kernel/', 'plugins/', 'sandbox/'])
      expect([...sizes.keys()].filter((f) => f.startsWith(top)).length, top).to.be.greaterThan(5);
  });

  it(`has no hand-written source file over ${MAX_LINES} lines but those allowed, with a reason`, () => {
    const over = [...sizes]
      .filter(([file, lines]) => lines > MAX_LINES && !isGenerated(file) && !(file in ALLOWED_OVER))
      .map(([file, lines]) => `${file}: ${lines} lines`);
    expect(over, `split these at their seams:\n${over.join('\n')}`).to.deep.equal([]);
  });

  it('keeps the allow-list honest: every file on it exists and is still over the limit', () => {
    const stale = Object.keys(ALLOWED_OVER).filter((file) => (sizes.get(file) ?? 0) <= MAX_LINES);
    expect(stale, `remove from ALLOWED_OVER:\n${stale.join('\n')}`).to.deep.equal([]);
  });
});
