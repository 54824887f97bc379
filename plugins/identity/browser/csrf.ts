import { ApiError } from '../../../kernel/errors.js';
import type { Call } from '../../../kernel/types.js';

/** The header the console sends on every mutating call; no other site's page can set it without CORS. */
export const CSRF_HEADER = 'x-runtime-csrf';

/** The host[:port] of `url` with that scheme's default port left out, or undefined when it is not one. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser's `Origin` names the origin this request was addressed to. Host and port
 * are compared (with the Origin's scheme for the default port on both sides), so a service
 * behind a TLS-terminating proxy that forwards the Host header matches even when it is not
 * told the scheme.
 */
function sameOrigin(origin: string, call: Call): boolean {
  if (!call.origin) return false;
  const scheme = origin.startsWith('https://') ? 'https:' : origin.startsWith('http://') ? 'http:' : undefined;
  if (!scheme) return false;
  const sent = hostOf(origin);
  const addressed = hostOf(`${scheme}//${call.origin.replace(/^https?:\/\//, '')}`);
  return sent !== undefined && sent === addressed;
}

/**
 * Why a call a browser's cookie authenticates (or that sets one) may not be a forgery: it
 * carries the console's own header, and comes from a page of this origin (Origin, or when a
 * browser sends none, Sec-Fetch-Site). Undefined when it passes.
 */
function csrfProblem(call: Call): string | undefined {
  if (call.headers[CSRF_HEADER] !== '1') return 'it lacks the header X-Runtime-CSRF: 1';
  const origin = call.headers.origin;
  if (origin !== undefined)
    return sameOrigin(origin, call) ? undefined : `its Origin ${origin.slice(0, 200)} is not this service's`;
  if (call.headers['sec-fetch-site'] === 'same-origin') return undefined;
  return 'it names no Origin (nor Sec-Fetch-Site: same-origin)';
}

/** Throws 403 csrf_rejected unless the call passes the check above. */
export function assertNotForged(call: Call): void {
  const problem = csrfProblem(call);
  if (problem)
    throw new ApiError(
      'csrf_rejected',
      `A browser session's change must come from the console: ${problem}. Scripts send a Bearer token instead of the cookie.`,
    );
}
