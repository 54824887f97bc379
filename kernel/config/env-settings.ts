/**
 * Plugin settings from the environment, with one naming rule for every setting of every plugin:
 *
 *     RUNTIME_SETTINGS__<PLUGIN>__<KEY>[__<KEY>…]=<value>
 *
 * `__` separates the levels of `settings.<plugin>.<key>…`; each level is written in upper case
 * and read in lower case (setting names are lower-case snake_case, checked by a test over every
 * plugin's settings schema). The value is JSON when it parses as JSON (`5000`, `true`,
 * `["loopback"]`, `{"url":"nats://…"}`, `"123"` for a string of digits), else the text as it is
 * (`nats://127.0.0.1:4222`). The environment overrides the profile file; the plugin's settings
 * schema then validates the result at boot like any other setting, so a wrong name or value
 * stops the process with exit code 2 and a line naming `settings.<plugin>/<path>`.
 */
export const SETTINGS_PREFIX = 'RUNTIME_SETTINGS__';
export const SETTINGS_SEPARATOR = '__';

type Json = Record<string, unknown>;

/** The environment variable that sets `settings.<plugin>.<path…>`. */
export function settingVariable(plugin: string, path: readonly string[]): string {
  return `${SETTINGS_PREFIX}${[plugin, ...path].map((part) => part.toUpperCase()).join(SETTINGS_SEPARATOR)}`;
}

/** A variable's value: JSON when it parses as JSON, else the text as it is. */
export function environmentValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const LEVEL = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * `{<plugin>: {<key>: …}}` from every RUNTIME_SETTINGS__ variable, in name order so the result
 * does not depend on the environment's order; problems (a name with no key, an empty level, a
 * level that is set both as a value and as a parent) are pushed as one line each.
 */
export function settingsFromEnvironment(env: Readonly<Record<string, string | undefined>>, problems: string[]): Json {
  const out: Json = {};
  const names = Object.keys(env)
    .filter((name) => name.startsWith(SETTINGS_PREFIX) && env[name] !== undefined)
    .sort();
  for (const name of names) {
    const levels = name.slice(SETTINGS_PREFIX.length).split(SETTINGS_SEPARATOR);
    if (levels.length < 2 || levels.some((level) => !LEVEL.test(level))) {
      problems.push(
        `${name}: name a plugin and a setting, levels separated by "${SETTINGS_SEPARATOR}" (e.g. ${settingVariable('sql', ['statement_timeout_ms'])})`,
      );
      continue;
    }
    let node = out;
    const path = levels.map((level) => level.toLowerCase());
    const last = path.pop() as string;
    let clash = false;
    for (const level of path) {
      const next = node[level];
      if (next === undefined) node[level] = {};
      else if (!isObject(next)) {
        clash = true;
        break;
      }
      node = node[level] as Json;
    }
    if (clash || isObject(node[last])) {
      problems.push(`${name}: another RUNTIME_SETTINGS__ variable sets a level of this path to a value`);
      continue;
    }
    node[last] = environmentValue(env[name] as string);
  }
  return out;
}
