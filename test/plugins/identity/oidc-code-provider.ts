import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface CodeFlowProvider {
  issuer: string;
  /**
   * Plays the browser at the provider: follows its redirects from the authorization URL, signs
   * `account` in and consents through its development pages, and returns the URL the provider
   * finally sends the browser to (the service's callback).
   */
  signIn(authorizationUrl: string, account: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (panva's oidc-provider) for the authorization-code flow of a public
 * client with PKCE, whose ID tokens carry `email` and `roles` claims.
 */
export async function startCodeFlowProvider(client: {
  id: string;
  redirectUri: string;
  roles: Record<string, string[]>;
}): Promise<CodeFlowProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey as KeyObject).export({ format: 'jwk' }), kid: 'code-flow', use: 'sig', alg: 'RS256' };
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [
      {
        client_id: client.id,
        token_endpoint_auth_method: 'none',
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub', 'roles'], email: ['email'], profile: [] },
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@example.test`, roles: client.roles[id] ?? [] }),
    }),
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    async signIn(authorizationUrl, account) {
      const cookies = new Map<string, string>();
      const remember = (res: Response): void => {
        for (const line of res.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const eq = pair.indexOf('=');
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
      };
      const cookieHeader = (): string => [...cookies].map(([n, v]) => `${n}=${v}`).join('; ');
      let url = new URL(authorizationUrl);
      let body: URLSearchParams | undefined;
      for (let hop = 0; hop < 20; hop++) {
        if (!url.href.startsWith(issuer)) return url;
        const res = await fetch(url, {
          method: body ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: cookieHeader(),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(body ? { body: body.toString() } : {}),
        });
        remember(res);
        body = undefined;
        const location = res.headers.get('location');
        if (location) {
          url = new URL(location, url);
          continue;
        }
        const page = await res.text();
        if (res.status !== 200 || !url.pathname.startsWith('/interaction/'))
          throw new Error(`unexpected answer of the provider at ${url.pathname}: ${res.status} ${page.slice(0, 300)}`);
        // A development page: the login form, then the consent form; both post to the interaction.
        body = /name="login"/.test(page)
          ? new URLSearchParams({ prompt: 'login', login: account, password: 'any' })
          : new URLSearchParams({ prompt: 'consent' });
        const action = /action="([^"]+)"/.exec(page)?.[1];
        url = new URL(action ?? url.pathname, url);
      }
      throw new Error('the provider did not send the browser back');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
