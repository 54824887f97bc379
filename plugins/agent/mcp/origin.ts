import { ApiError } from '../../../kernel/errors.js';

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

/**
 * The MCP spec requires servers to validate `Origin` against DNS rebinding: a page on another
 * site must not drive a local server through the browser. Allowed: no Origin (not a browser),
 * a loopback origin (a page served from this machine), or an origin in the allow-list. A
 * "same host" rule is deliberately absent: under DNS rebinding the attacker's Origin and Host
 * match, so it would let exactly that attack through; list the console's own origin instead.
 */
export function checkOrigin(origin: string | undefined, allowed: readonly string[]): void {
  if (origin === undefined) return;
  if (allowed.includes('*')) return;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  if (url && url.origin !== 'null' && (isLoopback(url.hostname) || allowed.includes(url.origin))) return;
  throw new ApiError(
    'forbidden',
    `Origin ${origin.slice(0, 200)} may not use the MCP endpoint; allow it in settings.agent.allowed_origins.`,
  );
}
