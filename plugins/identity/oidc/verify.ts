import * as oauth from 'oauth4webapi';
import { ApiError, isApiError } from '../../../kernel/errors.js';
import { invalidCredential } from '../authenticators/credentials.js';
import { fetchOptions, type IssuerCache } from './issuers.js';

/** An issuer we trust, from configuration (account level) or from a tenant's identity providers. */
export interface TrustedProvider {
  source: 'config' | 'tenant';
  id: string;
  /** Fixed tenant; null only for configured providers that read the tenant from a claim. */
  tenantId: string | null;
  issuer: string;
  audience: string;
  subjectClaim: string;
  tenantClaim: string | null;
  rolesClaim: string;
  algorithms: string[];
  defaultRoles: string[];
  /**
   * The roles a token's claim may bring; claimed roles outside it are ignored. Null only for
   * providers from configuration, which the operator vouches for: they honour every claimed role.
   */
  allowedRoles: string[] | null;
  allowInsecureHttp: boolean;
}

/** The claims of a JWT read WITHOUT verification, only to pick which provider must verify it. */
export function peekClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function isNetworkFailure(err: unknown): boolean {
  if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) return true;
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

/**
 * Verifies a JWT access token (RFC 9068) with oauth4webapi: signature against the issuer's
 * JWKS, `typ: at+jwt`, iss, aud, exp/nbf/iat, and the provider's allowed algorithms (so `none`
 * and HS256 are refused). `clockSkew` lines oauth4webapi's clock up with the kernel's clock.
 */
export async function verifyAccessToken(
  token: string,
  provider: TrustedProvider,
  issuers: IssuerCache,
  now: Date,
): Promise<oauth.JWTAccessTokenClaims> {
  const entry = issuers.get(provider.issuer, provider.allowInsecureHttp);
  const metadata = await entry.metadata;
  const request = new Request('http://runtime.invalid/', { headers: { authorization: `Bearer ${token}` } });
  try {
    return await oauth.validateJwtAccessToken(metadata, request, provider.audience, {
      ...fetchOptions(provider.allowInsecureHttp),
      signingAlgorithms: provider.algorithms,
      [oauth.clockSkew]: Math.round((now.getTime() - Date.now()) / 1000),
      [oauth.jwksCache]: entry.jwks,
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    if (isNetworkFailure(err))
      throw new ApiError('unavailable', "The identity provider's keys cannot be fetched.", { cause: err });
    throw invalidCredential('The access token is not valid for this service.');
  }
}
