/**
 * What the browser is told about every console response. The policy allows the app's own
 * files only: no inline or third-party script, no plugin content, no framing (clickjacking),
 * forms and base URLs to this origin only. Inline styles are allowed: the editor, terminal and
 * diagram libraries set style elements at run time, and a style cannot run code.
 */
export function securityHeaders(origin: string | undefined): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self'${socketOrigins(origin)}`,
      "worker-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/**
 * The WebSocket origins of this same host (the studio's sockets), spelled out for browsers whose
 * `'self'` does not cover ws: and wss:. Only a plain host[:port] is echoed into the header.
 */
function socketOrigins(origin: string | undefined): string {
  const host = origin?.replace(/^https?:\/\//, '');
  if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return '';
  return origin?.startsWith('https:') ? ` wss://${host}` : ` ws://${host} wss://${host}`;
}
