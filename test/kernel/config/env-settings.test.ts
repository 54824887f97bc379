import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { settingVariable } from '../../../kernel/config/env-settings.js';
import { ConfigError, loadConfig } from '../../../kernel/config/load.js';
import { fromRoot } from '../../../kernel/paths.js';
import { pluginSettings } from '../../../kernel/plugin/settings.js';

/**
 * RUNTIME_SETTINGS__<PLUGIN>__<PATH> (kernel/config/env-settings.ts), generated over every
 * plugin's settings schema: each setting gets a variable named by the rule and a value its
 * schema accepts (other than the default where the schema allows one), and the plugin's checked
 * settings must hold exactly that value at that path.
 */

type Schema = Record<string, any>;

/** Every built-in plugin's settings schema (its manifest's `settings`). */
function settingsSchemas(): Array<{ plugin: string; schema: Schema }> {
  const out: Array<{ plugin: string; schema: Schema }> = [];
  for (const file of readdirSync(fromRoot('manifests'))) {
    if (!file.endsWith('.json') || file === 'manifest.schema.json') continue;
    const manifest = JSON.parse(readFileSync(fromRoot('manifests', file), 'utf8')) as { id: string; settings?: Schema };
    if (manifest.settings) out.push({ plugin: manifest.id, schema: manifest.settings });
  }
  return out;
}

/** Each setting: its path and its schema (objects with properties are walked, everything else is a setting). */
function leaves(schema: Schema, path: string[] = []): Array<{ path: string[]; schema: Schema }> {
  if (schema.type === 'object' && schema.properties && !schema.required)
    return Object.entries(schema.properties as Record<string, Schema>).flatMap(([key, inner]) =>
      leaves(inner, [...path, key]),
    );
  return path.length ? [{ path, schema }] : [];
}

const STRINGS = [
  'from-env-value',
  'https://receiver.example.test/hook',
  `sha256:${'a'.repeat(64)}`,
  'nats://127.0.0.1:4222',
];

const ajv = new Ajv2020({ strict: false });

function fits(schema: Schema, value: unknown): boolean {
  return ajv.validate(schema, value) as boolean;
}

/** A value the setting's schema accepts, other than its default when there is another. */
function valueFor(schema: Schema): unknown {
  const candidates: unknown[] = [];
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (schema.enum) candidates.push(...[...schema.enum].reverse());
  else if (type === 'boolean') candidates.push(true, false);
  else if (type === 'integer' || type === 'number') {
    const low = schema.minimum ?? 0;
    candidates.push(low + 1, low, schema.maximum ?? low + 2);
  } else if (type === 'string') candidates.push(...STRINGS);
  else if (type === 'array') {
    const items = schema.items ?? {};
    if (items.enum) candidates.push([items.enum[0]]);
    if (items.type === 'string') candidates.push(['from-env-value'], ['https://console.example.test']);
    candidates.push([]);
  } else if (type === 'object') {
    const required = Object.fromEntries(
      (schema.required ?? []).map((key: string) => [key, valueFor(schema.properties[key])]),
    );
    candidates.push(required);
  }
  const fitting = candidates.filter((c) => fits(schema, c));
  const other = fitting.find((c) => JSON.stringify(c) !== JSON.stringify(schema.default));
  if (other === undefined && fitting.length === 0) throw new Error(`no value for ${JSON.stringify(schema)}`);
  return other ?? fitting[0];
}

/** Text as an operator would write it: strings bare (unless they would read as JSON), the rest as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      JSON.parse(value);
      return JSON.stringify(value);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value);
}

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

describe('Plugin settings from the environment (RUNTIME_SETTINGS__<PLUGIN>__<PATH>)', () => {
  const schemas = settingsSchemas();

  it('covers every plugin that declares settings, and every name can be written as a variable', () => {
    expect(schemas.map((s) => s.plugin)).to.include.members(['sql', 'alerts', 'connectors', 'streams', 'identity']);
    for (const { plugin, schema } of schemas) {
      expect(plugin, plugin).to.match(/^[a-z0-9_]+$/);
      for (const leaf of leaves(schema))
        for (const key of leaf.path) expect(key, `${plugin}.${leaf.path.join('.')}`).to.match(/^[a-z0-9_]+$/);
    }
  });

  for (const { plugin, schema } of settingsSchemas()) {
    it(`sets every setting of ${plugin} from its variable`, () => {
      const env: Record<string, string> = {};
      const expected = leaves(schema).map((leaf) => ({ ...leaf, value: valueFor(leaf.schema) }));
      expect(expected.length, plugin).to.be.greaterThan(0);
      for (const { path, value } of expected) env[settingVariable(plugin, path)] = asText(value);
      const config = loadConfig({ profile: 'test', env });
      const settings = pluginSettings(plugin, schema, (config.settings as Record<string, any>)[plugin] ?? {});
      for (const { path, value } of expected) {
        const what = `${settingVariable(plugin, path)}=${env[settingVariable(plugin, path)]}`;
        // An object setting gets its defaults filled in besides what the variable gave.
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          expect(at(settings, path), what).to.deep.include(value);
        else expect(at(settings, path), what).to.deep.equal(value);
      }
    });
  }

  it('overrides the profile, level by level, and leaves the profile’s other settings', () => {
    const config = loadConfig({
      env: { RUNTIME_SETTINGS__CONNECTORS__HTTP__DEFAULT_TIMEOUT_MS: '2500' },
    });
    expect((config.settings as any).connectors.http).to.deep.equal({ allow: ['loopback'], default_timeout_ms: 2500 });
  });

  it('refuses a malformed name with one line', () => {
    expect(() => loadConfig({ env: { RUNTIME_SETTINGS__SQL: '1' } })).to.throw(ConfigError, /RUNTIME_SETTINGS__SQL:/);
    expect(() => loadConfig({ env: { RUNTIME_SETTINGS__SQL____X: '1' } })).to.throw(ConfigError, /separated by "__"/);
  });

  it('stops the process with exit code 2 and a line naming the setting when a value does not fit', function () {
    this.timeout(150_000);
    const dir = mkdtempSync(join(tmpdir(), 'env-settings-'));
    try {
      for (const [name, value, line] of [
        [
          'RUNTIME_SETTINGS__SQL__MAX_CONCURRENT_PER_TENANT',
          '0',
          'settings.sql/max_concurrent_per_tenant: must be >= 1',
        ],
        [
          'RUNTIME_SETTINGS__SQL__NO_SUCH_SETTING',
          'true',
          'settings.sql: must NOT have additional properties (no_such_setting)',
        ],
      ] as const) {
        const run = spawnSync(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], {
          env: { ...process.env, RUNTIME_PROFILE: 'local', RUNTIME_DATA_DIR: dir, PORT: '0', [name]: value },
          encoding: 'utf8',
          timeout: 70_000,
        });
        expect(run.status, run.stderr).to.equal(2);
        expect(run.stderr).to.include(line);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
