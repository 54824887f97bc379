import { ACCOUNT_PERMISSION } from '../../../kernel/pipeline/steps/tenancy.js';
import type { Authenticator, Call, Principal } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { IssuerCache } from '../oidc/issuers.js';
import { peekClaims, verifyAccessToken, type TrustedProvider } from '../oidc/verify.js';
import { providersForIssuer, type ProviderRow } from '../store/providers.js';
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
    allowInsecureHttp: row.allow_insecure_http,
  };
}

function audiences(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** Whether the (unverified) token is meant for this provider: audience and, if mapped, tenant. */
function addressedTo(provider: TrustedProvider, claims: Record<string, unknown>): boolean {
  if (!audiences(claims).includes(provider.audience)) return false;
  if (provider.tenantId !== null && provider.tenantClaim !== null) return claims[provider.tenantClaim] === provider.tenantId;
  return true;
}

function roleNames(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * `Authorization: Bearer <JWT>` from a trusted OpenID provider. oauth4webapi verifies the token;
 * this link then maps claims to subject, tenant and roles. A provider a tenant registered can
 * only sign its callers into that tenant and never grants account-wide scope.
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
    allowInsecureHttp: p.allowInsecureHttp,
  }));

  async function candidates(call: Call, issuer: string): Promise<TrustedProvider[]> {
    const fromTenants = (await providersForIssuer(call.db, issuer)).map(fromRow);
    return [...configured.filter((p) => p.issuer === issuer), ...fromTenants];
  }

  return {
    name: 'oidc',
    securitySchemes: { oidc: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'JWT access token from a trusted OpenID provider.' } },
    async authenticate(call) {
      const token = authorizationCredential(call.headers.authorization, 'Bearer');
      if (!token) return null;
      const peeked = peekClaims(token);
      if (!peeked) return null;
      const issuer = typeof peeked.iss === 'string' ? peeked.iss : undefined;
      if (!issuer) throw invalidCredential('The access token names no issuer.');
      const provider = (await candidates(call, issuer)).find((p) => addressedTo(p, peeked));
      if (!provider) throw invalidCredential('The access token comes from an issuer or for an audience this service does not trust.');

      const claims = await verifyAccessToken(token, provider, issuers, deps.clock.now());
      const subject = claims[provider.subjectClaim];
      if (typeof subject !== 'string' || subject.length === 0) throw invalidCredential(`The access token has no ${provider.subjectClaim} claim.`);
      const claimedTenant = provider.tenantClaim ? claims[provider.tenantClaim] : undefined;
      const tenantId = provider.tenantId ?? (typeof claimedTenant === 'string' ? claimedTenant : undefined);
      if (!tenantId || (claimedTenant !== undefined && claimedTenant !== tenantId)) throw invalidCredential('The access token is not for a tenant this provider serves.');
      if (provider.source === 'config' && !(await tenantExists(call.db, tenantId))) throw invalidCredential('The access token names an unknown tenant.');

      const requested = [...new Set([...provider.defaultRoles, ...roleNames(claims[provider.rolesClaim])])];
      const { roles } = await deps.roles.resolve(call.db, tenantId, requested);
      const permissions = new Set(roles.flatMap((r) => r.permissions));
      if (provider.source === 'tenant') permissions.delete(ACCOUNT_PERMISSION);
      const principal: Principal = {
        subjectId: `${provider.id}:${subject}`,
        tenantId,
        credential: { kind: 'oidc', id: provider.id },
        roles: roles.map((r) => r.id),
        permissions,
      };
      if (typeof claims.email === 'string') principal.email = claims.email;
      return principal;
    },
  };
}
