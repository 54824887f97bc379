import * as oauth from 'oauth4webapi';
import { ApiError } from '../../../kernel/errors.js';
import { fetchOptions, type IssuerCache } from '../oidc/issuers.js';
import type { ProviderRow } from '../store/providers.js';

/** What the callback learned from the provider: the ID token's verified claims. */
export type IdTokenClaims = oauth.IDToken;

function clientOf(provider: ProviderRow): oauth.Client {
  return { client_id: provider.browser_client_id as string };
}

/** The authorization endpoint's URL for a new flow, with PKCE (S256), state and nonce. */
export async function authorizationUrl(
  issuers: IssuerCache,
  provider: ProviderRow,
  flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  const metadata = await issuers.get(provider.issuer, provider.allow_insecure_http).metadata;
  if (!metadata.authorization_endpoint)
    throw new ApiError('unavailable', 'The identity provider names no authorization endpoint.');
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', clientOf(provider).client_id);
  url.searchParams.set('redirect_uri', flow.redirectUri);
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', flow.state);
  url.searchParams.set('nonce', flow.nonce);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(flow.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}

/**
 * Checks the authorization response (state, issuer), redeems the code at the token endpoint
 * with the PKCE verifier, and verifies the ID token (signature, issuer, audience = the client,
 * nonce, expiry) with oauth4webapi. Throws invalid_credentials for anything the provider or the
 * browser got wrong, unavailable when the provider cannot be reached.
 */
export async function redeemCode(
  issuers: IssuerCache,
  provider: ProviderRow,
  callback: URL,
  flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
): Promise<IdTokenClaims> {
  const entry = issuers.get(provider.issuer, provider.allow_insecure_http);
  const metadata = await entry.metadata;
  const client = clientOf(provider);
  const options = { ...fetchOptions(provider.allow_insecure_http), [oauth.jwksCache]: entry.jwks };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(metadata, client, callback, flow.state);
  } catch (err) {
    throw refused('The identity provider refused or the answer does not match the sign-in that was started.', err);
  }
  let response: Response;
  try {
    response = await oauth.authorizationCodeGrantRequest(
      metadata,
      client,
      oauth.None(),
      params,
      flow.redirectUri,
      flow.codeVerifier,
      options,
    );
  } catch (err) {
    throw new ApiError('unavailable', "The identity provider's token endpoint cannot be reached.", { cause: err });
  }
  try {
    const result = await oauth.processAuthorizationCodeResponse(metadata, client, response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(result);
    if (!claims) throw new Error('no ID token');
    return claims;
  } catch (err) {
    throw refused('The identity provider did not sign this subject in (the code or its ID token is not valid).', err);
  }
}

function refused(message: string, cause: unknown): ApiError {
  return new ApiError('invalid_credentials', message, { cause });
}
