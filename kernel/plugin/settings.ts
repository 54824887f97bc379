import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../manifest/types.js';
import { environmentValue } from '../config/env-settings.js';
import { ConfigError } from '../config/load.js';

const options = { allErrors: true, strict: false, useDefaults: true } as const;
/**
 * For the built-in plugins' schemas, which a test checks against JSON Schema once
 * (test/kernel/own-schemas.test.ts): compiling the meta-schema to check them cost ~100 ms of
 * every start. A plugin from elsewhere has its schema checked (the meta-schema then compiled).
 */
const trusted = new Ajv2020({ ...options, validateSchema: false });
let checking: Ajv2020 | undefined;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * A plugin's settings (`settings.<id>` in the profile), checked against the JSON Schema its
 * manifest declares, defaults filled in, frozen — like the rest of the configuration, a wrong
 * value stops the boot with one line per problem. Without a schema the settings pass as given.
 * `builtin`: the schema is one of this repository's, checked by a test rather than here.
 */
export function pluginSettings(
  plugin: string,
  schema: JsonSchema | undefined,
  raw: Readonly<Record<string, unknown>>,
  builtin = false,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Readonly<Record<string, unknown>> {
  const copy = structuredClone({ ...raw }) as Record<string, unknown>;
  if (schema) {
    // A setting may also name a variable of its own (`"x-env": "RUNTIME_…"`), a shorter name a
    // plugin documents for it; the profile and RUNTIME_SETTINGS__ come first.
    const properties = (schema.properties ?? {}) as Record<string, { 'x-env'?: unknown }>;
    for (const [name, property] of Object.entries(properties)) {
      const variable = property['x-env'];
      if (typeof variable === 'string' && copy[name] === undefined && env[variable] !== undefined)
        copy[name] = environmentValue(env[variable] as string);
    }
    const ajv = builtin ? trusted : (checking ??= new Ajv2020(options));
    const validate = ajv.compile(schema);
    if (!validate(copy)) {
      const problems = (validate.errors ?? []).map((e) => {
        const extra = e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : '';
        return `settings.${plugin}${e.instancePath || ''}: ${e.message ?? 'is invalid'}${extra}`;
      });
      // A configuration error like the rest (exit code 2): settings come from the profile or
      // from RUNTIME_SETTINGS__ variables (config/env-settings.ts).
      throw new ConfigError(problems);
    }
  }
  return deepFreeze(copy);
}
