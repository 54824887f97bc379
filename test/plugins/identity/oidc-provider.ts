import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import Provider from 'oidc-provider';

/** The resource (audience) our service is registered as at the test OpenID provider. */
export const AUDIENCE = 'https://runtime.test/api';

export interface TestClient {
  id: string;
  secret: string;
  /** Extra claims oidc-provider puts into this client's JWT access tokens. */
  claims: Record<string, unknown>;
}

export interface RunningProvider {
  issuer: string;
  /** The provider's signing key (to prove forged tokens are told apart from real ones). */
  signingKid: string;
  /** Client-credentials grant → a JWT access token (RFC 9068) for `resource`. */
  token(clientId: string, resource?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (panva's oidc-provider) on 127.0.0.1 issuing JWT access tokens through
 * the client-credentials grant with resource indicators: the same tokens a production IdP sends.
 */
export async function startOidcProvider(clients: TestClient[]): Promise<RunningProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKid = `kid-${Math.random().toString(36).slice(2)}`;
  const jwk = { ...(privateKey as KeyObject).export({ format: 'jwk' }), kid: signingKid, use: 'sig', alg: 'RS256' };
  const byClient = new Map(clients.map((c) => [c.id, c.claims]));

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    ttl: { ClientCredentials: 300 },
    clients: clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
    })),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: 'api',
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) =>
      token.clientId ? byClient.get(token.clientId) : undefined,
  });
  server.on('request', provider.callback());

  return {
    issuer,
    signingKid,
    async token(clientId, resource = AUDIENCE) {
      const client = clients.find((c) => c.id === clientId);
      if (!client) throw new Error(`no test client ${clientId}`);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'api' }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!response.ok || !body.access_token)
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
