import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromRoot, PROJECT_ROOT } from '../paths.js';
import type { KernelConfig, Profile } from './types.js';

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

/** Environment overrides the profile (DESIGN.md "process settings"). */
function environmentOverrides(env: Env, problems: string[]): Json {
  const over: Json = {};
  const http: Json = {};
  const database: Json = {};
  if (env.PORT !== undefined) {
    const port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
    else http.port = port;
  }
  if (env.HOST) http.host = env.HOST;
  if (env.DATABASE_URL) database.url = env.DATABASE_URL;
  if (env.RUNTIME_DATA_DIR) database.data_dir = env.RUNTIME_DATA_DIR;
  if (env.RUNTIME_LOG_LEVEL) over.log = { level: env.RUNTIME_LOG_LEVEL };
  if (env.RUNTIME_AUTH_MODE) over.auth = { mode: env.RUNTIME_AUTH_MODE };
  if (env.RUNTIME_PLUGINS) over.plugins = env.RUNTIME_PLUGINS.split(',').map((p) => p.trim()).filter(Boolean);
  if (Object.keys(http).length) over.http = http;
  if (Object.keys(database).length) over.database = database;
  return over;
}

function buildInfo(env: Env): { version: string; commit: string } {
  const pkg = readJson(fromRoot('package.json'));
  let commit = env.RUNTIME_BUILD_COMMIT ?? '';
  if (!commit && existsSync(fromRoot('.git'))) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
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
  validateConfig ??= new Ajv2020({ allErrors: true, useDefaults: true, strict: false, validateSchema: false }).compile(readJson(fromRoot('config', 'config.schema.json')));
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
    if (!config.database.url) problems.push('the production profile needs DATABASE_URL (a PostgreSQL URL); the embedded database is for local use only');
    if (config.auth.mode === 'none') problems.push('the production profile refuses auth.mode "none": enable an authenticator (the identity plugin with sessions, API tokens or OIDC)');
  }
  return problems;
}
