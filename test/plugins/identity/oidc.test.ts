import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, loginAdmin, movableClock } from '../../support/identity.js';
import { AUDIENCE, startOidcProvider, type RunningProvider, type TestClient } from './oidc-provider.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];

const CLIENTS: TestClient[] = [
  { id: 'viewer-app', secret: 'viewer-app-secret-0001', claims: { tenant: 'default', roles: ['viewer'] } },
  { id: 'builder-app', secret: 'builder-app-secret-0002', claims: { tenant: 'default', roles: 'builder' } },
  { id: 'other-tenant-app', secret: 'other-tenant-secret-0003', claims: { tenant: 'acme', roles: ['admin'] } },
  { id: 'greedy-app', secret: 'greedy-app-secret-00004', claims: { tenant: 'default', roles: ['account-admin'] } },
];

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function parts(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
} {
  const [h, p, s] = token.split('.') as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
    signature: s,
  };
}

describe('OIDC JWT bearer (real oidc-provider on loopback)', () => {
  const time = movableClock();
  let idp: RunningProvider;
  let stranger: RunningProvider;
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    idp = await startOidcProvider(CLIENTS);
    stranger = await startOidcProvider(CLIENTS);
    tk = await startKernel({ plugins: PLUGINS }, { clock: time.clock });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'acme');
    const res = await tk.request('POST', '/identity-providers', {
      token: admin,
      body: {
        id: 'corp-idp',
        issuer: idp.issuer,
        audience: AUDIENCE,
        claims: { tenant: 'tenant', roles: 'roles' },
        algorithms: ['RS256'],
        allowed_roles: ['viewer', 'builder', 'admin', 'account-admin'],
        allow_insecure_http: true,
      },
    });
    expect(res.status, res.text).to.equal(201);
  });
  after(async () => {
    await tk?.close();
    await idp?.close();
    await stranger?.close();
  });

  describe('POST /identity-providers', () => {
    it('refuses a plain-http issuer unless explicitly allowed on loopback', async () => {
      const res = await tk.request('POST', '/identity-providers', {
        token: admin,
        body: { issuer: idp.issuer, audience: AUDIENCE },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.details[0]).to.include({ pointer: '/issuer' });
      const remote = await tk.request('POST', '/identity-providers', {
        token: admin,
        body: { issuer: 'http://idp.example.com', audience: AUDIENCE, allow_insecure_http: true },
      });
      expect(remote.status).to.equal(400);
    });

    it('lists and reads providers of the tenant', async () => {
      const list = await tk.request('GET', '/identity-providers', { token: admin });
      expect(list.status).to.equal(200);
      expect(list.body.items.map((p: { id: string }) => p.id)).to.deep.equal(['corp-idp']);
      const one = await tk.request('GET', '/identity-providers/corp-idp', { token: admin });
      expect(one.body).to.include({ issuer: idp.issuer, audience: AUDIENCE, enabled: true });
      expect(one.body.claims).to.deep.equal({ subject: 'sub', tenant: 'tenant', roles: 'roles' });
    });
  });

  describe('accepted tokens', () => {
    it('signs a viewer in to its tenant with the roles its token claims', async () => {
      const token = await idp.token('viewer-app');
      const read = await tk.request('GET', '/components', { token });
      expect(read.status, read.text).to.equal(200);
      const write = await tk.request('POST', '/components', {
        token,
        body: { type: 'passthrough', name: 'by-viewer' },
      });
      expect(write.status).to.equal(403);
      expect(write.body.error.message).to.include('runtime:component:write');
    });

    it('a builder token writes, and the audit names the OIDC subject', async () => {
      const token = await idp.token('builder-app');
      const res = await tk.request('POST', '/components', { token, body: { type: 'passthrough', name: 'by-oidc' } });
      expect(res.status, res.text).to.equal(201);
      const record = await tk.kernel.database
        .knex('audit_records')
        .where({ operation: 'createComponent', resource_id: 'by-oidc' })
        .first();
      const text = JSON.stringify(record);
      expect(text).to.include('corp-idp:builder-app');
      expect(text).to.include('oidc');
    });

    it("never grants account-wide scope through a tenant's provider", async () => {
      const token = await idp.token('greedy-app');
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);
      const tenants = await tk.request('GET', '/tenants', { token });
      expect(tenants.status).to.equal(403);
      const other = await tk.request('GET', '/components?tenant_id=acme', { token });
      expect(other.status).to.equal(404);
    });
  });

  describe('refused tokens (401 invalid_credentials)', () => {
    async function expectRefused(token: string, why: string): Promise<void> {
      const res = await tk.request('GET', '/components', { token });
      expect(res.status, `${why}: ${res.text}`).to.equal(401);
      expect(res.body.error.code, why).to.equal('invalid_credentials');
    }

    it('a token for another tenant than the provider serves', async () => {
      await expectRefused(await idp.token('other-tenant-app'), 'tenant claim acme at a provider of default');
    });

    it('a token from an issuer nobody registered', async () => {
      await expectRefused(await stranger.token('viewer-app'), 'unregistered issuer');
    });

    it('a token whose unverified issuer or audience holds text the database cannot store (401, not 400 or 500)', async () => {
      const real = parts(await idp.token('viewer-app'));
      for (const edit of [{ iss: 'https://idp.test/\u0000' }, { aud: ['x\ud800'] }]) {
        await expectRefused(
          `${b64url(real.header)}.${b64url({ ...real.payload, ...edit })}.${real.signature}`,
          `claims ${JSON.stringify(edit)}`,
        );
      }
    });

    it('a token for another audience', async () => {
      await expectRefused(await idp.token('viewer-app', 'https://someone-else.test/api'), 'wrong audience');
    });

    it('an expired token (the kernel clock moved past exp)', async () => {
      const token = await idp.token('viewer-app');
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);
      time.advance(10 * 60);
      try {
        await expectRefused(token, 'expired');
      } finally {
        time.advance(-10 * 60);
      }
    });

    it('a token re-signed with a key of our own (forged), and one whose claims were edited', async () => {
      const real = parts(await idp.token('viewer-app'));
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const header = b64url(real.header);
      const payload = b64url({ ...real.payload, roles: ['admin'] });
      const forged = `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')}`;
      await expectRefused(forged, 'forged signature');
      await expectRefused(`${header}.${payload}.${real.signature}`, 'edited claims with the original signature');
    });

    it("a token with alg none, and one signed HS256 with the issuer's public key material", async () => {
      const real = parts(await idp.token('viewer-app'));
      const payload = b64url({ ...real.payload, roles: ['admin'] });
      await expectRefused(`${b64url({ alg: 'none', typ: 'at+jwt' })}.${payload}.`, 'alg none');
      const jwks = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
      const hsHeader = b64url({ alg: 'HS256', typ: 'at+jwt', kid: idp.signingKid });
      const mac = createHmac('sha256', JSON.stringify(jwks.keys[0]))
        .update(`${hsHeader}.${payload}`)
        .digest('base64url');
      await expectRefused(`${hsHeader}.${payload}.${mac}`, 'HS256');
    });

    it('a token once its provider is deleted', async () => {
      const token = await idp.token('viewer-app');
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);
      const created = await tk.request('POST', '/identity-providers', {
        token: admin,
        body: {
          id: 'temp-idp',
          issuer: stranger.issuer,
          audience: AUDIENCE,
          claims: { tenant: 'tenant' },
          allowed_roles: ['viewer'],
          allow_insecure_http: true,
        },
      });
      expect(created.status, created.text).to.equal(201);
      const strangerToken = await stranger.token('viewer-app');
      expect((await tk.request('GET', '/components', { token: strangerToken })).status).to.equal(200);
      const removed = await tk.request('DELETE', '/identity-providers/temp-idp', { token: admin });
      expect(removed.status, removed.text).to.equal(204);
      await expectRefused(strangerToken, 'provider deleted');
    });
  });
});

describe('OIDC providers from configuration', () => {
  let idp: RunningProvider;
  let tk: TestKernel;

  before(async () => {
    idp = await startOidcProvider(CLIENTS);
    tk = await startKernel({
      plugins: PLUGINS,
      settings: {
        identity: {
          oidc_providers: [
            {
              id: 'sso',
              issuer: idp.issuer,
              audience: AUDIENCE,
              claims: { tenant: 'tenant', roles: 'roles' },
              allow_insecure_http: true,
            },
          ],
        },
      },
    });
  });
  after(async () => {
    await tk?.close();
    await idp?.close();
  });

  it('takes the tenant from the configured claim and refuses unknown tenants', async () => {
    const viewer = await tk.request('GET', '/components', { token: await idp.token('viewer-app') });
    expect(viewer.status, viewer.text).to.equal(200);
    const unknownTenant = await tk.request('GET', '/components', { token: await idp.token('other-tenant-app') });
    expect(unknownTenant.status).to.equal(401);
  });
});
