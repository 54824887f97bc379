/**
 * Which browser origins may open a WebSocket. A page on another site must not open one with a
 * ticket it got hold of, nor reach a local server through DNS rebinding. Allowed: no Origin (not
 * a browser; the ticket decides), a listed origin, and loopback origins when configured (the
 * local profile). A "same host" rule is deliberately absent: under DNS rebinding the attacker's
 * Origin and Host match, so it would let exactly that attack through.
 */
export type OriginCheck = (origin: string | undefined) => boolean;

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

function originOf(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? undefined : url;
  } catch {
    return undefined;
  }
}

export function originCheck(options: { allowed: readonly string[]; loopback: boolean }): OriginCheck {
  const any = options.allowed.includes('*');
  const listed = new Set(options.allowed.filter((o) => o !== '*').map((o) => originOf(o)?.origin ?? o));
  return (origin) => {
    if (origin === undefined) return true;
    if (any) return true;
    const url = originOf(origin);
    if (!url) return false;
    return listed.has(url.origin) || (options.loopback && isLoopback(url.hostname));
  };
}
