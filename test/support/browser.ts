import type { HttpResult, TestKernel } from './kernel.js';

/** The cookies a browser would keep from the responses it got (name → value; Max-Age=0 removes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Takes the Set-Cookie headers of a response; returns them as sent. */
  take(res: HttpResult): string[] {
    const set = res.headers.getSetCookie();
    for (const line of set) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return set;
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The headers the console sends with every change: its CSRF header and its (this service's) origin. */
export function consoleHeaders(tk: TestKernel, jar?: CookieJar): Record<string, string> {
  return {
    'x-runtime-csrf': '1',
    origin: new URL(tk.url).origin,
    ...(jar && jar.cookies.size > 0 ? { cookie: jar.header() } : {}),
  };
}

/** Signs a browser in with a password; returns its jar (throws unless 200). */
export async function browserLogin(
  tk: TestKernel,
  credentials: { tenant_id: string; username: string; password: string },
): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await tk.request('POST', '/auth/browser/login', { body: credentials, headers: consoleHeaders(tk) });
  if (res.status !== 200) throw new Error(`browser login failed: ${res.status} ${res.text}`);
  jar.take(res);
  return jar;
}
