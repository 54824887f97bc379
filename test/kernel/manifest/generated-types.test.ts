import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fromRoot } from '../../../kernel/paths.js';
import { GENERATE_COMMAND, generatedModules, moduleSource } from '../../support/manifest-types/generate.js';
import type { Manifest } from '../../../kernel/manifest/types.js';

describe('types generated from the manifests', () => {
  it('are up to date: every committed module is what its manifest generates now', function () {
    this.timeout(60_000);
    const stale: string[] = [];
    const modules = generatedModules();
    expect(modules.size).to.be.greaterThan(10);
    for (const [path, text] of modules) {
      const committed = existsSync(fromRoot(path)) ? readFileSync(fromRoot(path), 'utf8') : undefined;
      if (committed !== text) stale.push(`${path} is ${committed === undefined ? 'missing' : 'stale'}`);
    }
    // A module left behind by a plugin (or manifest) that is gone.
    for (const plugin of readdirSync(fromRoot('plugins'))) {
      const path = `plugins/${plugin}/generated/manifest-types.ts`;
      if (existsSync(fromRoot(path)) && !modules.has(path)) stale.push(`${path} has no manifest to come from`);
    }
    expect(stale, `${stale.join('\n')}\nRun \`${GENERATE_COMMAND}\` and commit the result.`).to.deep.equal([]);
  });

  it('types a field with a default as present and one without as optional, for settings and input alike', () => {
    const manifest: Manifest = {
      id: 'example',
      version: '1.0.0',
      summary: 'x',
      settings: {
        type: 'object',
        properties: { interval_ms: { type: 'integer', default: 5 }, url: { type: 'string' } },
      },
      routes: [
        {
          operation: 'createThing',
          method: 'POST',
          path: '/things',
          permission: 'runtime:thing:write',
          category: 'things',
          read_only: false,
          summary: 'x',
          body: {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: {
              name: { type: 'string' },
              size: { type: 'integer', default: 1 },
              mode: { enum: ['a', 'b'] },
              tags: { type: 'array', items: { type: 'string' } },
              parent: { type: ['string', 'null'] },
            },
          },
          response: { status: 201 },
        },
      ],
    };
    const source = moduleSource(manifest)
      .replace(/\/\*\*.*?\*\//g, '')
      .replace(/\s+/g, ' ');
    expect(source).to.include('export type Settings = { interval_ms: number; url?: string; }');
    expect(source).to.include(
      "body: { name: string; size: number; mode?: 'a' | 'b'; tags?: string[]; parent?: string | null; tenant_id?: string; }",
    );
    expect(source).to.include('tenant: true;');
  });
});
