import type { Authenticator } from '../../../kernel/types.js';
import { readCookie, SESSION_COOKIE } from '../browser/cookies.js';
import { assertNotForged } from '../browser/csrf.js';
import type { IdentityDeps } from '../deps.js';
import { sessionPrincipal } from './session.js';

/**
 * The browser's session: the same access token as `Bearer sess_…`, held in an HttpOnly cookie
 * set by /auth/browser/login. The last link of the chain, so any credential a request names
 * explicitly wins over a cookie the browser adds on its own. A change (any method but GET) the
 * cookie authenticates must pass the CSRF check; the refusal names the subject, so the audit
 * record of the refused call lands in the tenant's trail. WebSocket routes never run the chain
 * (they open with a ticket), so a cookie opens no socket.
 */
export function cookieAuthenticator(deps: IdentityDeps): Authenticator {
  return {
    // Not `session`: the session link answers for held session credentials (tickets, sockets).
    name: 'session-cookie',
    securitySchemes: {
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description:
          'Browser session set by POST /auth/browser/login (HttpOnly). Changes need the header X-Runtime-CSRF: 1 and a same-origin Origin.',
      },
    },
    async authenticate(call) {
      if (call.headers.authorization !== undefined || call.headers['x-api-key'] !== undefined) return null;
      const token = readCookie(call.headers.cookie, SESSION_COOKIE);
      if (!token) return null;
      const principal = await sessionPrincipal(deps, call.db, token);
      if (call.route.mutating) {
        try {
          assertNotForged(call);
        } catch (err) {
          call.principal = principal;
          throw err;
        }
      }
      return principal;
    },
  };
}
