import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromRoot, PROJECT_ROOT } from '../paths.js';
import type { KernelConfig, Profile } from './types.js';
import { settingsFromEnvironment } from './env-settings.js';
import { PROCESS_VARIABLES } from './process-variables.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;
type Json = Record<string, unknown>;

const PROFILES: readonly Profile[] = ['local', 'production', 'test'];

function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; arrays and scalars replace. */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Environment overrides the profile (DESIGN.md "process settings"): the variables of
 * PROCESS_VARIABLES, each at its setting's path, then the RUNTIME_SETTINGS__ variables.
 */
function environmentOverrides(env: Env, problems: string[]): Json {
  const over: Json = {};
  for (const variable of PROCESS_VARIABLES) {
    const text = env[variable.name];
    if (text === undefined || !variable.read) continue;
    const value = variable.read(text, problems);
    if (value === undefined) continue;
    const path = variable.setting.split('.');
    const last = path.pop() as string;
    let node = over;
    for (const level of path) node = (node[level] ??= {}) as Json;
    node[last] = value;
  }
  const settings = settingsFromEnvironment(env, problems);
  if (Object.keys(settings).length) over.settings = settings;
  return over;
}

function buildInfo(env: Env): { version: string; commit: string } {
  const pkg = readJson(fromRoot('package.json'));
  let commit = env.RUNTIME_BUILD_COMMIT ?? '';
  if (!commit && existsSync(fromRoot('.git'))) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  return { version: String(pkg.version), commit: commit || 'unknown' };
}

let validateConfig: ReturnType<Ajv2020['compile']> | undefined;

/**
 * Loads `config/<profile>.json`, applies environment overrides and then `overrides` (tests),
 * validates against config/config.schema.json with defaults filled in, and freezes the result.
 */
export function loadConfig(options: { env?: Env; profile?: string; overrides?: Json } = {}): Readonly<KernelConfig> {
  const env = options.env ?? process.env;
  const problems: string[] = [];
  const profile = options.profile ?? env.RUNTIME_PROFILE ?? 'local';
  if (!PROFILES.includes(profile as Profile)) {
    throw new ConfigError([`RUNTIME_PROFILE must be one of ${PROFILES.join(', ')}, got "${profile}"`]);
  }
  let merged = deepMerge(readJson(fromRoot('config', `${profile}.json`)), environmentOverrides(env, problems));
  if (options.overrides) merged = deepMerge(merged, options.overrides);
  delete merged.$schema;
  merged.settings ??= {};
  merged.build = { ...buildInfo(env), ...(isObject(merged.build) ? merged.build : {}) };

  // The schema is the repository's own, checked against JSON Schema by a test rather than at every
  // start: compiling the meta-schema first cost 100 ms of each boot.
  validateConfig ??= new Ajv2020({ allErrors: true, useDefaults: true, strict: false, validateSchema: false }).compile(
    readJson(fromRoot('config', 'config.schema.json')),
  );
  if (!validateConfig(merged)) {
    for (const e of validateConfig.errors ?? []) problems.push(`${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  }
  const config = merged as unknown as KernelConfig;
  if (problems.length === 0) problems.push(...profileRules(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

/** Rules that tie settings to the profile. */
function profileRules(config: KernelConfig): string[] {
  const problems: string[] = [];
  if (config.profile === 'production') {
    if (!config.database.url)
      problems.push(
        'the production profile needs DATABASE_URL (a PostgreSQL URL); the embedded database is for local use only',
      );
    if (config.auth.mode === 'none')
      problems.push(
        'the production profile refuses auth.mode "none": enable an authenticator (the identity plugin with sessions, API tokens or OIDC)',
      );
  }
  return problems;
}
