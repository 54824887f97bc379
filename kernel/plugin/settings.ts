import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../manifest/types.js';
import { PluginLoadError } from './resolve.js';

const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });

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
 */
export function pluginSettings(plugin: string, schema: JsonSchema | undefined, raw: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy = structuredClone({ ...raw }) as Record<string, unknown>;
  if (schema) {
    const validate = ajv.compile(schema);
    if (!validate(copy)) {
      const problems = (validate.errors ?? []).map((e) => {
        const extra = e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : '';
        return `settings.${plugin}${e.instancePath || ''}: ${e.message ?? 'is invalid'}${extra}`;
      });
      throw new PluginLoadError(problems.join('\n'));
    }
  }
  return deepFreeze(copy);
}
