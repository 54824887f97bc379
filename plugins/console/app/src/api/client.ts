import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, toApiError } from './errors';
import { emitSessionEvent } from './session-events';
import { refreshSession } from '../auth/refresh';
import { actingTenant } from '../auth/tenant';

/**
 * The typed API client. The browser's credential is the HttpOnly session cookie (sent because the
 * API is on the same origin); no token is ever held in script-readable storage. Every mutating
 * call carries the CSRF header the server requires with a cookie.
 */
export const CSRF_HEADER = 'X-Runtime-CSRF';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Adds the CSRF header to a request that changes something. */
export function withCsrf(method: string, headers: Headers): Headers {
  if (!SAFE_METHODS.has(method.toUpperCase())) headers.set(CSRF_HEADER, '1');
  return headers;
}

const retries = new WeakMap<Request, Request>();

/**
 * An account admin acting in another tenant: reads take `tenant_id` as a query parameter,
 * writes as a body field (the API's tenancy contract).
 */
async function inActingTenant(request: Request): Promise<Request> {
  const tenant = actingTenant();
  if (!tenant) return request;
  const url = new URL(request.url);
  if (url.pathname.startsWith('/auth/')) return request;
  if (SAFE_METHODS.has(request.method)) {
    if (!url.searchParams.has('tenant_id')) url.searchParams.set('tenant_id', tenant);
    return new Request(url, request);
  }
  if (!(request.headers.get('content-type') ?? '').includes('application/json')) return request;
  const text = await request.clone().text();
  try {
    const body = JSON.parse(text) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || 'tenant_id' in body) return request;
    return new Request(request, { body: JSON.stringify({ ...body, tenant_id: tenant }) });
  } catch {
    return request;
  }
}

const sessionMiddleware: Middleware = {
  async onRequest({ request: original }) {
    const request = await inActingTenant(original);
    withCsrf(request.method, request.headers);
    // Kept to send again once a silent refresh has renewed an expired session.
    retries.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    // The agent's 503 says its model provider did not answer, not that this server is down: the
    // panel shows it; the shell's outage banner is for the server itself.
    const fromAgent = new URL(request.url).pathname.startsWith('/agent/');
    if (response.status === 503 && !fromAgent) emitSessionEvent({ kind: 'unavailable', retrying: true });
    else if (response.status < 500) emitSessionEvent({ kind: 'available' });
    if (response.status !== 401 || new URL(request.url).pathname.startsWith('/auth/browser/')) return response;
    const again = retries.get(request);
    if (again && (await refreshSession())) return fetch(again);
    emitSessionEvent({ kind: 'expired' });
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(sessionMiddleware);

/** Awaits an openapi-fetch call and returns its data, or throws the API's error as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (err) {
    throw new ApiError(0, 'network_error', `The server could not be reached (${(err as Error).message}).`);
  }
  if (!result.response.ok) throw toApiError(result.response, result.error);
  return result.data as T;
}

/** The next-page cursor of a list answer (the X-Next-Cursor header). */
export function nextCursor(response: Response): string | undefined {
  return response.headers.get('X-Next-Cursor') ?? undefined;
}

/** A page of a list operation: its items and the cursor of the next page. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** Awaits a list call and keeps its X-Next-Cursor. */
export async function unwrapPage<T>(
  call: Promise<{ data?: { items: T[] }; error?: unknown; response: Response }>,
): Promise<Page<T>> {
  const result = await call.catch((err: Error) => {
    throw new ApiError(0, 'network_error', `The server could not be reached (${err.message}).`);
  });
  if (!result.response.ok) throw toApiError(result.response, result.error);
  const next = nextCursor(result.response);
  return { items: result.data?.items ?? [], ...(next ? { next } : {}) };
}
