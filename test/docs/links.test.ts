import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect } from 'chai';
import { fromRoot, PROJECT_ROOT } from '../../kernel/paths.js';

/** README.md and every Markdown file under docs/. */
function pages(): string[] {
  const found = [fromRoot('README.md')];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk(fromRoot('docs'));
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
}

/** Markdown links outside code blocks: [text](target). */
function linksIn(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
}

describe('documentation links', () => {
  it('resolve inside the repository: every relative link names a file that exists, every #anchor a heading', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      for (const target of linksIn(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : normalize(join(dirname(page), path));
        const where = `${relative(PROJECT_ROOT, page)} → ${target}`;
        if (relative(PROJECT_ROOT, file).startsWith('..')) broken.push(`${where}: leaves the repository`);
        else if (!existsSync(file)) broken.push(`${where}: no such file`);
        else if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchorsIn(file).has(anchor))
          broken.push(`${where}: no heading #${anchor}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('name nothing outside the repository as a place to read (no ../shared paths)', () => {
    const outside = pages().filter((page) => /\.\.\/shared\//.test(readFileSync(page, 'utf8')));
    expect(outside.map((p) => relative(PROJECT_ROOT, p))).to.deep.equal([]);
  });

  it('keep the README short: at most 200 lines', () => {
    expect(readFileSync(fromRoot('README.md'), 'utf8').split('\n').length).to.be.at.most(200);
  });
});
