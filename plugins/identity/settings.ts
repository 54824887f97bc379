import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ScryptParams } from './passwords/scrypt.js';

/** An OIDC issuer trusted through configuration rather than through the API. */
export interface ProviderSettings {
  id: string;
  issuer: string;
  audience: string;
  /** Fixed tenant; without it the tenant comes from the claim named by claims.tenant. */
  tenantId: string | null;
  claims: { subject: string; tenant: string | null; roles: string };
  algorithms: string[];
  defaultRoles: string[];
  allowInsecureHttp: boolean;
}

export interface IdentitySettings {
  accessTokenTtlSeconds: number;
  refreshIdleTtlSeconds: number;
  sessionMaxTtlSeconds: number;
  apiTokenDefaultDays: number | null;
  scrypt: ScryptParams;
  maxConcurrentHashes: number;
  maxQueuedHashes: number;
  lockout: { maxFailures: number; baseSeconds: number; maxSeconds: number };
  bootstrap: { enabled: boolean; tenantId: string; username: string; password: string | null };
  breakGlass: { keyHash: string; tenantId: string } | null;
  providers: ProviderSettings[];
}

export const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

const claimsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { subject: { type: 'string', minLength: 1 }, tenant: { type: 'string', minLength: 1 }, roles: { type: 'string', minLength: 1 } },
};

/** The identity plugin's settings (`settings.identity` in a config profile). */
export const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    access_token_ttl_seconds: { type: 'integer', minimum: 30, maximum: 86400, default: 900 },
    refresh_idle_ttl_seconds: { type: 'integer', minimum: 60, default: 604800 },
    session_max_ttl_seconds: { type: 'integer', minimum: 60, default: 2592000 },
    api_token_default_days: { type: ['integer', 'null'], minimum: 1, maximum: 3650, default: 90 },
    password: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        // OWASP's floor for scrypt is N = 2^17, r = 8, p = 1; weaker settings are refused.
        scrypt_log_n: { type: 'integer', minimum: 17, maximum: 20, default: 17 },
        max_concurrent_hashes: { type: 'integer', minimum: 1, maximum: 16, default: 2 },
        max_queued_hashes: { type: 'integer', minimum: 0, maximum: 10000, default: 64 },
      },
    },
    lockout: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        max_failures: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
        base_seconds: { type: 'integer', minimum: 1, default: 30 },
        max_seconds: { type: 'integer', minimum: 1, default: 900 },
      },
    },
    bootstrap: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        enabled: { type: 'boolean' },
        tenant_id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', default: 'default' },
        username: { type: 'string', minLength: 1, default: 'admin' },
        admin_password: { type: 'string', minLength: 12 },
      },
    },
    break_glass: {
      type: 'object',
      additionalProperties: false,
      required: ['key_hash'],
      properties: {
        key_hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$', description: 'sha256:<hex of the SHA-256 of the key>' },
        tenant_id: { type: 'string', default: 'default' },
      },
    },
    oidc_providers: {
      type: 'array',
      default: [],
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'issuer', 'audience'],
        properties: {
          id: { type: 'string', minLength: 1 },
          issuer: { type: 'string', minLength: 8 },
          audience: { type: 'string', minLength: 1 },
          tenant_id: { type: 'string' },
          claims: claimsSchema,
          algorithms: { type: 'array', minItems: 1, items: { type: 'string' } },
          default_roles: { type: 'array', items: { type: 'string' } },
          allow_insecure_http: { type: 'boolean' },
        },
      },
    },
  },
};

export class IdentitySettingsError extends Error {
  constructor(problems: string[]) {
    super(`identity settings are invalid:\n  ${problems.join('\n  ')}`);
    this.name = 'IdentitySettingsError';
  }
}

type Raw = Record<string, any>;

export function parseSettings(input: Readonly<Record<string, unknown>>, profile: string, env: Readonly<Record<string, string | undefined>>): IdentitySettings {
  const raw = structuredClone(input) as Raw;
  // SCHEMA is checked against JSON Schema by a test rather than at every start (100 ms of a boot).
  const validate = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, validateSchema: false }).compile(SCHEMA);
  if (!validate(raw)) {
    throw new IdentitySettingsError((validate.errors ?? []).map((e) => `settings.identity${e.instancePath} ${e.message ?? 'is invalid'}`));
  }
  const problems: string[] = [];
  const providers: ProviderSettings[] = (raw.oidc_providers as Raw[]).map((p) => {
    const claims = (p.claims ?? {}) as Raw;
    if (!p.tenant_id && !claims.tenant) problems.push(`settings.identity.oidc_providers ${p.id}: needs tenant_id or claims.tenant`);
    return {
      id: String(p.id),
      issuer: String(p.issuer),
      audience: String(p.audience),
      tenantId: p.tenant_id ? String(p.tenant_id) : null,
      claims: { subject: claims.subject ?? 'sub', tenant: claims.tenant ?? null, roles: claims.roles ?? 'roles' },
      algorithms: (p.algorithms as string[] | undefined) ?? DEFAULT_ALGORITHMS,
      defaultRoles: (p.default_roles as string[] | undefined) ?? [],
      allowInsecureHttp: p.allow_insecure_http === true,
    };
  });
  // A pair belongs to one provider, so a token is validated by one and signs in one way.
  const pairs = new Map<string, string>();
  for (const p of providers) {
    const pair = JSON.stringify([p.issuer, p.audience]);
    const first = pairs.get(pair);
    if (first !== undefined) problems.push(`settings.identity.oidc_providers ${p.id}: the same issuer and audience as ${first}`);
    else pairs.set(pair, p.id);
  }
  if (problems.length) throw new IdentitySettingsError(problems);
  const bootstrap = raw.bootstrap as Raw;
  const breakGlass = raw.break_glass as Raw | undefined;
  return {
    accessTokenTtlSeconds: raw.access_token_ttl_seconds,
    refreshIdleTtlSeconds: raw.refresh_idle_ttl_seconds,
    sessionMaxTtlSeconds: raw.session_max_ttl_seconds,
    apiTokenDefaultDays: raw.api_token_default_days,
    scrypt: { logN: raw.password.scrypt_log_n, r: 8, p: 1 },
    maxConcurrentHashes: raw.password.max_concurrent_hashes,
    maxQueuedHashes: raw.password.max_queued_hashes,
    lockout: { maxFailures: raw.lockout.max_failures, baseSeconds: raw.lockout.base_seconds, maxSeconds: raw.lockout.max_seconds },
    bootstrap: {
      // The local and test profiles bootstrap by default; production only when asked to.
      enabled: bootstrap.enabled ?? (profile !== 'production' || Boolean(env.RUNTIME_ADMIN_PASSWORD)),
      tenantId: bootstrap.tenant_id,
      username: bootstrap.username,
      password: env.RUNTIME_ADMIN_PASSWORD || bootstrap.admin_password || null,
    },
    breakGlass: breakGlass ? { keyHash: String(breakGlass.key_hash).slice('sha256:'.length), tenantId: String(breakGlass.tenant_id) } : null,
    providers,
  };
}
