import type { Settings } from './generated/manifest-types.js';
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

/** What the manifest's schema cannot say of `settings.identity`: the checks across its fields. */
export class IdentitySettingsError extends Error {
  constructor(problems: string[]) {
    super(`identity settings are invalid:\n  ${problems.join('\n  ')}`);
    this.name = 'IdentitySettingsError';
  }
}

type ConfiguredProvider = Settings['oidc_providers'][number];

function providerSettings(p: ConfiguredProvider): ProviderSettings {
  const claims = p.claims ?? {};
  return {
    id: p.id,
    issuer: p.issuer,
    audience: p.audience,
    tenantId: p.tenant_id || null,
    claims: { subject: claims.subject ?? 'sub', tenant: claims.tenant ?? null, roles: claims.roles ?? 'roles' },
    // Copies: the kernel froze the settings, and these lists are typed (and handed on) as mutable.
    algorithms: p.algorithms ? [...p.algorithms] : DEFAULT_ALGORITHMS,
    defaultRoles: [...(p.default_roles ?? [])],
    allowInsecureHttp: p.allow_insecure_http === true,
  };
}

/**
 * scrypt's least cost outside the test profile: OWASP's floor, N = 2^17 (about half a second of
 * CPU here). The test profile may go lower: its suite boots hundreds of kernels, each hashing the
 * bootstrap admin's password and signing in, and spent most of its CPU on scrypt.
 */
export const OWASP_SCRYPT_LOG_N = 17;

/**
 * The identity plugin's settings (`settings.identity` in a config profile) as its parts use them.
 * The kernel checked them against the manifest's `settings` schema and filled in its defaults;
 * left to check here is what spans fields: a provider's tenant, one provider per issuer and
 * audience pair, and scrypt's cost against the profile.
 */
export function readSettings(
  raw: Readonly<Settings>,
  profile: string,
  env: Readonly<Record<string, string | undefined>>,
): IdentitySettings {
  const problems: string[] = [];
  for (const p of raw.oidc_providers)
    if (!p.tenant_id && !p.claims?.tenant)
      problems.push(`settings.identity.oidc_providers ${p.id}: needs tenant_id or claims.tenant`);
  if (raw.password.scrypt_log_n < OWASP_SCRYPT_LOG_N && profile !== 'test')
    problems.push(
      `settings.identity.password.scrypt_log_n ${raw.password.scrypt_log_n}: below ${OWASP_SCRYPT_LOG_N} (OWASP's floor) is accepted only under the test profile`,
    );
  const providers = raw.oidc_providers.map(providerSettings);
  // A pair belongs to one provider, so a token is validated by one and signs in one way.
  const pairs = new Map<string, string>();
  for (const p of providers) {
    const pair = JSON.stringify([p.issuer, p.audience]);
    const first = pairs.get(pair);
    if (first !== undefined)
      problems.push(`settings.identity.oidc_providers ${p.id}: the same issuer and audience as ${first}`);
    else pairs.set(pair, p.id);
  }
  if (problems.length) throw new IdentitySettingsError(problems);
  const { bootstrap, break_glass: breakGlass } = raw;
  return {
    accessTokenTtlSeconds: raw.access_token_ttl_seconds,
    refreshIdleTtlSeconds: raw.refresh_idle_ttl_seconds,
    sessionMaxTtlSeconds: raw.session_max_ttl_seconds,
    apiTokenDefaultDays: raw.api_token_default_days,
    scrypt: { logN: raw.password.scrypt_log_n, r: 8, p: 1 },
    maxConcurrentHashes: raw.password.max_concurrent_hashes,
    maxQueuedHashes: raw.password.max_queued_hashes,
    lockout: {
      maxFailures: raw.lockout.max_failures,
      baseSeconds: raw.lockout.base_seconds,
      maxSeconds: raw.lockout.max_seconds,
    },
    bootstrap: {
      // The local and test profiles bootstrap by default; production only when asked to.
      enabled: bootstrap.enabled ?? (profile !== 'production' || Boolean(env.RUNTIME_ADMIN_PASSWORD)),
      tenantId: bootstrap.tenant_id,
      username: bootstrap.username,
      password: env.RUNTIME_ADMIN_PASSWORD || bootstrap.admin_password || null,
    },
    breakGlass: breakGlass
      ? { keyHash: breakGlass.key_hash.slice('sha256:'.length), tenantId: breakGlass.tenant_id }
      : null,
    providers,
  };
}
