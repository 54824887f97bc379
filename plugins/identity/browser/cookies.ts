import type { Call } from '../../../kernel/types.js';

/** The access token (`sess_…`), sent with every request to this origin. */
export const SESSION_COOKIE = 'runtime_session';
/** The refresh token (`rt_…`), sent only to the browser sign-in routes. */
export const REFRESH_COOKIE = 'runtime_refresh';
/** Where the refresh cookie is sent: the routes that refresh and end the session. */
export const REFRESH_PATH = '/auth/browser';

/** The value of one cookie of a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.length > 0 && value.length <= 512 ? value : undefined;
  }
  return undefined;
}

/** Whether the request reached the service over TLS (directly, or as a trusted proxy says). */
export function overTls(call: Call): boolean {
  return call.origin?.startsWith('https:') ?? false;
}

/**
 * A `Set-Cookie` value: HttpOnly (no script reads it), SameSite=Strict (no other site's page
 * sends it), Secure whenever the request came over TLS. Max-Age 0 deletes the cookie.
 */
function cookie(
  call: Call,
  name: string,
  value: string,
  path: string,
  maxAgeSeconds: number,
  sameSite: 'Strict' | 'Lax' = 'Strict',
): string {
  const secure = overTls(call) ? '; Secure' : '';
  return `${name}=${value}; Path=${path}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; SameSite=${sameSite}${secure}`;
}

function secondsUntil(at: string, now: Date): number {
  return (new Date(at).getTime() - now.getTime()) / 1000;
}

/** Both cookies of a session, each living as long as its token. */
export function sessionCookies(
  call: Call,
  tokens: { access_token: string; refresh_token: string; expires_at: string; refresh_expires_at: string },
  now: Date,
): string[] {
  return [
    cookie(call, SESSION_COOKIE, tokens.access_token, '/', secondsUntil(tokens.expires_at, now)),
    cookie(call, REFRESH_COOKIE, tokens.refresh_token, REFRESH_PATH, secondsUntil(tokens.refresh_expires_at, now)),
  ];
}

/** Deletes both cookies. */
export function clearedCookies(call: Call): string[] {
  return [cookie(call, SESSION_COOKIE, '', '/', 0), cookie(call, REFRESH_COOKIE, '', REFRESH_PATH, 0)];
}

/** The random id of a single sign-on in progress, sent only to its callback. */
export const FLOW_COOKIE = 'runtime_oidc_flow';
const FLOW_PATH = '/auth/browser/oidc';

/**
 * The flow's cookie. Lax, not Strict: the provider sends the browser back to the callback from
 * its own site, and a Strict cookie would stay behind. It holds no credential, only what binds
 * the callback to the browser that started the sign-in (so nobody can finish it in another).
 */
export function flowCookie(call: Call, id: string, maxAgeSeconds: number): string {
  return cookie(call, FLOW_COOKIE, id, FLOW_PATH, maxAgeSeconds, 'Lax');
}

export function clearedFlowCookie(call: Call): string {
  return cookie(call, FLOW_COOKIE, '', FLOW_PATH, 0, 'Lax');
}
