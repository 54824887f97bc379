import * as oauth from 'oauth4webapi';
import { ApiError } from '../../../kernel/errors.js';

const METADATA_TTL_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;

interface Entry {
  metadata: Promise<oauth.AuthorizationServer>;
  fetchedAt: number;
  /** oauth4webapi's JWKS cache for this issuer (public keys only). */
  jwks: oauth.JWKSCacheInput;
}

/** Network options shared by discovery and JWKS fetches; http only when explicitly allowed. */
export function fetchOptions(insecure: boolean): {
  signal: () => AbortSignal;
  [oauth.allowInsecureRequests]?: boolean;
} {
  return {
    signal: () => AbortSignal.timeout(FETCH_TIMEOUT_MS),
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/**
 * Discovery documents and JWKS per issuer, kept in memory for a few minutes. These are public
 * keys and endpoints, not credential state, so caching them does not delay any revocation.
 */
export class IssuerCache {
  private readonly entries = new Map<string, Entry>();

  get(issuer: string, insecure: boolean): Entry {
    const key = `${insecure ? 'insecure' : 'secure'} ${issuer}`;
    const existing = this.entries.get(key);
    if (existing && Date.now() - existing.fetchedAt < METADATA_TTL_MS) return existing;
    const entry: Entry = { metadata: discover(issuer, insecure), fetchedAt: Date.now(), jwks: {} };
    // A failed discovery is not cached: the next request tries again.
    entry.metadata.catch(() => this.entries.delete(key));
    this.entries.set(key, entry);
    return entry;
  }
}

async function discover(issuer: string, insecure: boolean): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  try {
    const response = await oauth.discoveryRequest(url, fetchOptions(insecure));
    return await oauth.processDiscoveryResponse(url, response);
  } catch (err) {
    throw new ApiError('unavailable', "The identity provider's discovery document cannot be read.", { cause: err });
  }
}

/** True for the loopback hosts where a plain-http issuer may be allowed (tests, local use). */
export function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === '127.0.0.1' || host === '[::1]' || host === '::1' || host === 'localhost';
  } catch {
    return false;
  }
}
