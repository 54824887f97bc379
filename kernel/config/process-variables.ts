/**
 * The environment variables the kernel reads, each with the configuration setting it sets. One
 * table serves the loader (config/load.ts applies it) and the generated settings reference
 * (docs/reference/settings.md), so a variable cannot be read without being documented.
 */
export interface ProcessVariable {
  readonly name: string;
  /** The setting it sets, as a dotted path of config/config.schema.json. */
  readonly setting: string;
  readonly description: string;
  /**
   * The value it gives the setting, or undefined (with a problem pushed) when it cannot. Absent
   * for the two variables the loader reads itself: RUNTIME_PROFILE picks the profile file, and
   * RUNTIME_BUILD_COMMIT stands in for `git rev-parse HEAD`.
   */
  readonly read?: (text: string, problems: string[]) => unknown;
}

const asText = (text: string): unknown => (text === '' ? undefined : text);

export const PROCESS_VARIABLES: readonly ProcessVariable[] = [
  {
    name: 'RUNTIME_PROFILE',
    setting: 'profile',
    description:
      'The profile file to start from, `config/<profile>.json`: `local` (the default), `production` or `test`.',
  },
  {
    name: 'PORT',
    setting: 'http.port',
    description: 'The port to listen on (0: any free port).',
    read(text, problems) {
      const port = Number(text);
      if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
      problems.push(`PORT must be an integer from 0 to 65535, got "${text}"`);
      return undefined;
    },
  },
  { name: 'HOST', setting: 'http.host', description: 'The address to listen on.', read: asText },
  {
    name: 'DATABASE_URL',
    setting: 'database.url',
    description: 'A PostgreSQL URL; required in production; in local it replaces the embedded database.',
    read: asText,
  },
  {
    name: 'RUNTIME_DATA_DIR',
    setting: 'database.data_dir',
    description: 'The embedded database’s directory (`memory` keeps it in memory); one process at a time.',
    read: asText,
  },
  { name: 'RUNTIME_LOG_LEVEL', setting: 'log.level', description: 'The log level (pino’s levels).', read: asText },
  {
    name: 'RUNTIME_AUTH_MODE',
    setting: 'auth.mode',
    description: '`none` runs with no authenticator, every call acting as the local admin (refused in production).',
    read: asText,
  },
  {
    name: 'RUNTIME_PLUGINS',
    setting: 'plugins',
    description: 'Comma-separated ids of the enabled plugins, replacing the profile’s list.',
    read(text) {
      const ids = text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      return text === '' ? undefined : ids;
    },
  },
  {
    name: 'RUNTIME_BUILD_COMMIT',
    setting: 'build.commit',
    description: 'The build commit `/health` reports; without it, `git rev-parse HEAD` of the project.',
  },
];
