import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromRoot } from '../../kernel/paths.js';
import { compileRoute } from '../../kernel/manifest/compile.js';
import type { Manifest } from '../../kernel/manifest/types.js';
import { SchemaCompiler } from '../../kernel/manifest/validators.js';

// The kernel compiles these schemas without checking them against JSON Schema first (that
// check cost 100 ms of every start each); so it is made here, once.
describe('schemas the project writes itself', () => {
  const ajv = new Ajv2020({ strict: false });
  const owned: Record<string, object> = {
    'config/config.schema.json': JSON.parse(readFileSync(fromRoot('config', 'config.schema.json'), 'utf8')) as object,
    'manifests/manifest.schema.json': JSON.parse(
      readFileSync(fromRoot('manifests', 'manifest.schema.json'), 'utf8'),
    ) as object,
  };
  // The built-in plugins' settings schemas (kernel/plugin/settings.ts compiles them unchecked).
  for (const file of readdirSync(fromRoot('manifests')).filter(
    (f) => f.endsWith('.json') && f !== 'manifest.schema.json',
  )) {
    const settings = (JSON.parse(readFileSync(fromRoot('manifests', file), 'utf8')) as { settings?: object }).settings;
    if (settings) owned[`settings of manifests/${file}`] = settings;
  }

  for (const [name, schema] of Object.entries(owned)) {
    it(`${name} is valid JSON Schema 2020-12`, () => {
      expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).to.equal(true);
    });
  }

  it('a schema that breaks JSON Schema is told apart (the check can fail)', () => {
    expect(ajv.validateSchema({ type: 'object', properties: { id: { type: 'strnig' } } })).to.equal(false);
  });

  // The kernel mounts the built-in plugins' routes without checking their schemas either
  // (kernel/manifest/validators.ts, `trusted`); every one is checked here, as compiled.
  const manifests = readdirSync(fromRoot('manifests'))
    .filter((f) => f.endsWith('.json') && f !== 'manifest.schema.json')
    .map((f) => JSON.parse(readFileSync(fromRoot('manifests', f), 'utf8')) as Manifest);
  it("every built-in manifest's named schemas and route schemas are valid JSON Schema 2020-12", () => {
    const compiler = new SchemaCompiler(manifests);
    let checked = 0;
    for (const manifest of manifests) {
      for (const decl of manifest.routes) {
        const route = compileRoute(manifest.id, decl, manifest.schemas ?? {});
        for (const part of ['params', 'query', 'body'] as const) {
          const schema = route.schemas[part];
          if (!schema) continue;
          expect(
            () => compiler.compile(manifest.id, part, schema as Record<string, unknown>),
            `${manifest.id} ${decl.operation} ${part}`,
          ).not.to.throw();
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(50);
  });

  it("an untrusted plugin's broken schema stops the mount; a trusted one is not checked (the check can fail)", () => {
    const broken = { type: 'object', properties: { id: { type: 'strnig' } } };
    expect(() => new SchemaCompiler([]).compile('outsider', 'body', broken)).to.throw(
      /outsider body schema is invalid/,
    );
    expect(() => new SchemaCompiler([], new Set(['builtin'])).compile('builtin', 'body', broken)).not.to.throw();
  });
});
