import { ACCOUNT_PERMISSION, TENANT_PATTERN, unstorableText } from '../../../kernel/plugin/api.js';
import type { Authenticator, Call, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { IssuerCache } from '../oidc/issuers.js';
import { peekClaims, verifyAccessToken, type TrustedProvider } from '../oidc/verify.js';
import { CONFIGURED_PROVIDER_PREFIX } from '../minters.js';
import { providersFor, type ProviderRow } from '../store/providers.js';
import { tenantExists } from '../store/tenants.js';
import { authorizationCredential, invalidCredential } from './credentials.js';

function fromRow(row: ProviderRow): TrustedProvider {
  return {
    source: 'tenant',
    id: row.id,
    tenantId: row.tenant_id,
    issuer: row.issuer,
    audience: row.audience,
    subjectClaim: row.subject_claim,
    tenantClaim: row.tenant_claim,
    rolesClaim: row.roles_claim,
    algorithms: row.algorithms,
    defaultRoles: row.default_roles,
    allowedRoles: row.allowed_roles,
    allowInsecureHttp: row.allow_insecure_http,
  };
}

function audiences(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  return typeof aud === 'string'
    ? [aud]
    : Array.isArray(aud)
      ? aud.filter((a): a is string => typeof a === 'string')
      : [];
}

function roleNames(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * `Authorization: Bearer <JWT>` from a trusted OpenID provider. The token's issuer and audience
 * pick exactly one provider (a pair belongs to one tenant; the token's own claims never choose
 * among providers), oauth4webapi verifies the token, and this link then maps claims to subject,
 * tenant and roles. A provider a tenant registered signs its callers into that tenant only,
 * whatever tenant the token claims, honours only the claimed roles it allows, and never grants
 * account-wide scope.
 */
export function oidcAuthenticator(deps: IdentityDeps): Authenticator {
  const issuers = new IssuerCache();
  const configured: TrustedProvider[] = deps.settings.providers.map((p) => ({
    source: 'config',
    id: p.id,
    tenantId: p.tenantId,
    issuer: p.issuer,
    audience: p.audience,
    subjectClaim: p.claims.subject,
    tenantClaim: p.claims.tenant,
    rolesClaim: p.claims.roles,
    algorithms: p.algorithms,
    defaultRoles: p.defaultRoles,
    allowedRoles: null,
    allowInsecureHttp: p.allowInsecureHttp,
  }));

  /**
   * The one provider the token is addressed to. A tenant's registration of a pair that the
   * configuration also trusts (registered before the configuration named it) is shadowed by
   * the configuration: the operator's word is the account's. A token whose audiences name
   * several providers is refused rather than guessed at.
   */
  async function providerFor(call: Call, issuer: string, claims: Record<string, unknown>): Promise<TrustedProvider> {
    const aud = audiences(claims);
    // Claims are the caller's text until the token is verified: what the database could not
    // store (a NUL, a lone surrogate) is no issuer or audience anyone registered.
    if ([issuer, ...aud].some((text) => unstorableText(text) !== undefined))
      throw invalidCredential('The access token names an issuer or audience no provider has.');
    const fromConfig = configured.filter((p) => p.issuer === issuer && aud.includes(p.audience));
    const shadowed = new Set(fromConfig.map((p) => p.audience));
    const fromTenants = (await providersFor(call.db, issuer, aud))
      .map(fromRow)
      .filter((p) => !shadowed.has(p.audience));
    const matches = [...fromConfig, ...fromTenants];
    if (matches.length === 0)
      throw invalidCredential('The access token comes from an issuer or for an audience this service does not trust.');
    if (matches.length > 1)
      throw invalidCredential(
        'The access token is addressed to several identity providers; send a token for one audience.',
      );
    return matches[0] as TrustedProvider;
  }

  /** The tenant the verified token signs in to: the provider's own, or (configuration only) the claimed one. */
  async function tenantFor(call: Call, provider: TrustedProvider, claims: Record<string, unknown>): Promise<string> {
    const claimed = provider.tenantClaim ? claims[provider.tenantClaim] : undefined;
    if (provider.tenantId !== null) {
      // A mapped tenant claim must agree with the provider's tenant; it never moves the subject.
      if (claimed !== undefined && claimed !== provider.tenantId)
        throw invalidCredential('The access token is not for a tenant this provider serves.');
      return provider.tenantId;
    }
    if (typeof claimed !== 'string' || !TENANT_PATTERN.test(claimed))
      throw invalidCredential('The access token is not for a tenant this provider serves.');
    if (!(await tenantExists(call.db, claimed))) throw invalidCredential('The access token names an unknown tenant.');
    return claimed;
  }

  return {
    name: 'oidc',
    securitySchemes: {
      oidc: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'JWT access token from a trusted OpenID provider.',
      },
    },
    async authenticate(call) {
      const token = authorizationCredential(call.headers.authorization, 'Bearer');
      if (!token) return null;
      const peeked = peekClaims(token);
      if (!peeked) return null;
      const issuer = typeof peeked.iss === 'string' ? peeked.iss : undefined;
      if (!issuer) throw invalidCredential('The access token names no issuer.');
      const provider = await providerFor(call, issuer, peeked);

      const claims = await verifyAccessToken(token, provider, issuers, deps.clock.now());
      const subject = claims[provider.subjectClaim];
      if (typeof subject !== 'string' || subject.length === 0)
        throw invalidCredential(`The access token has no ${provider.subjectClaim} claim.`);
      const tenantId = await tenantFor(call, provider, claims);

      const allowed = provider.allowedRoles;
      const claimed = roleNames(claims[provider.rolesClaim]).filter(
        (name) => allowed === null || allowed.includes(name),
      );
      const requested = [...new Set([...provider.defaultRoles, ...claimed])];
      const { roles } = await deps.roles.resolve(call.db, tenantId, requested);
      const permissions = new Set(roles.flatMap((r) => r.permissions));
      if (provider.source === 'tenant') permissions.delete(ACCOUNT_PERMISSION);
      const principal: Principal = {
        subjectId: `${provider.id}:${subject}`,
        tenantId,
        credential: {
          kind: 'oidc',
          id: provider.source === 'config' ? `${CONFIGURED_PROVIDER_PREFIX}${provider.id}` : provider.id,
        },
        roles: roles.map((r) => r.id),
        permissions,
      };
      if (typeof claims.email === 'string') principal.email = claims.email;
      return principal;
    },
  };
}
