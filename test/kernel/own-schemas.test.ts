import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromRoot } from '../../kernel/paths.js';
import { SCHEMA as IDENTITY_SETTINGS } from '../../plugins/identity/settings.js';

// The kernel compiles these schemas without checking them against JSON Schema first (that
// check cost 100 ms of every start each); so it is made here, once.
describe('schemas the project writes itself', () => {
  const ajv = new Ajv2020({ strict: false });
  const owned: Record<string, object> = {
    'config/config.schema.json': JSON.parse(readFileSync(fromRoot('config', 'config.schema.json'), 'utf8')) as object,
    'manifests/manifest.schema.json': JSON.parse(readFileSync(fromRoot('manifests', 'manifest.schema.json'), 'utf8')) as object,
    'settings of the identity plugin': IDENTITY_SETTINGS,
  };

  for (const [name, schema] of Object.entries(owned)) {
    it(`${name} is valid JSON Schema 2020-12`, () => {
      expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).to.equal(true);
    });
  }

  it('a schema that breaks JSON Schema is told apart (the check can fail)', () => {
    expect(ajv.validateSchema({ type: 'object', properties: { id: { type: 'strnig' } } })).to.equal(false);
  });
});
