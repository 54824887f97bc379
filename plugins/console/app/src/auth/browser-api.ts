import { ApiError, toApiError } from '../api/errors';
import type { components } from '../api/schema';

/**
 * The browser-session routes of the console plugin (`/auth/browser/*`, `/auth/me`). They are
 * called with plain fetch: the refresh must not go through the client's 401 handling, and the
 * sign-in page runs before there is a session.
 */
/** GET /auth/me's answer, as the identity manifest declares it. */
export type Me = components['schemas']['identity.Me'];

export interface LoginAnswer {
  user: { id: string; username: string; tenant_id: string };
  expires_at: string;
  refresh_expires_at: string;
}

export interface Provider {
  id: string;
  name: string;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['X-Runtime-CSRF'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    throw new ApiError(0, 'network_error', `The server could not be reached (${(err as Error).message}).`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw toApiError(response, parsed);
  return parsed as T;
}

export const browserAuth = {
  me: () => call<Me>('GET', '/auth/me'),
  login: (tenant_id: string, username: string, password: string) =>
    call<LoginAnswer>('POST', '/auth/browser/login', { tenant_id, username, password }),
  refresh: () => call<{ expires_at: string }>('POST', '/auth/browser/refresh'),
  logout: (everywhere = false) => call<void>('POST', '/auth/browser/logout', { everywhere }),
  providers: (tenantId: string) =>
    call<{ items: Provider[] }>('GET', `/auth/browser/providers?tenant_id=${encodeURIComponent(tenantId)}`),
  oidcStartUrl: (tenantId: string, provider: string, returnTo: string) =>
    `/auth/browser/oidc/start?${new URLSearchParams({ tenant_id: tenantId, provider, return_to: returnTo }).toString()}`,
};
