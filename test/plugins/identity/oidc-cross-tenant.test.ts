import { expect } from 'chai';
import { isApiError } from '../../../kernel/errors.js';
import { insertProvider } from '../../../plugins/identity/store/providers.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, createUser, login, loginAdmin } from '../../support/identity.js';
import { AUDIENCE, startOidcProvider, type RunningProvider, type TestClient } from './oidc-provider.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'cross tenant password 01';
const TENANT_A = 'tenant-a';
const TENANT_B = 'tenant-b';

const CLIENTS: TestClient[] = [
  { id: 'b-app', secret: 'b-app-secret-000000001', claims: { roles: ['viewer'] } },
  // A token of B's single sign-on that claims to be for tenant A.
  { id: 'b-app-claims-a', secret: 'b-app-claims-a-secret-02', claims: { tenant: TENANT_A, roles: ['viewer'] } },
  { id: 'b-app-claims-b', secret: 'b-app-claims-b-secret-03', claims: { tenant: TENANT_B, roles: ['viewer'] } },
];

describe('OIDC providers across tenants (real oidc-provider on loopback)', () => {
  let idp: RunningProvider;
  let configured: RunningProvider;
  let tk: TestKernel;
  let adminA: string;
  let adminB: string;

  const provider = (issuer: string, extra: Record<string, unknown> = {}) => ({
    issuer,
    audience: AUDIENCE,
    allowed_roles: ['viewer'],
    allow_insecure_http: true,
    ...extra,
  });
  const rowsFor = (issuer: string) =>
    tk.kernel.database.knex('identity_providers').where({ issuer }).select('tenant_id', 'id', 'audience');

  before(async function () {
    this.timeout(120_000);
    idp = await startOidcProvider(CLIENTS);
    configured = await startOidcProvider(CLIENTS);
    tk = await startKernel({
      plugins: PLUGINS,
      settings: {
        identity: {
          oidc_providers: [
            {
              id: 'sso',
              issuer: configured.issuer,
              audience: AUDIENCE,
              tenant_id: 'default',
              allow_insecure_http: true,
            },
          ],
        },
      },
    });
    const root = await loginAdmin(tk);
    for (const tenant of [TENANT_A, TENANT_B]) {
      await createTenant(tk, root, tenant);
      await createUser(tk, root, {
        tenantId: tenant,
        username: `${tenant}-admin`,
        password: PASSWORD,
        roles: ['admin'],
      });
    }
    adminA = (await login(tk, { tenant_id: TENANT_A, username: `${TENANT_A}-admin`, password: PASSWORD })).access_token;
    adminB = (await login(tk, { tenant_id: TENANT_B, username: `${TENANT_B}-admin`, password: PASSWORD })).access_token;
    for (const [token, name] of [
      [adminA, 'a-only'],
      [adminB, 'b-only'],
    ] as const) {
      const made = await tk.request('POST', '/components', { token, body: { type: 'passthrough', name } });
      expect(made.status, made.text).to.equal(201);
    }
    const registered = await tk.request('POST', '/identity-providers', {
      token: adminB,
      body: provider(idp.issuer, { id: 'b-sso' }),
    });
    expect(registered.status, registered.text).to.equal(201);
  });
  after(async () => {
    await tk?.close();
    await idp?.close();
    await configured?.close();
  });

  describe('an (issuer, audience) pair belongs to one tenant', () => {
    it('refuses tenant A registering the pair tenant B holds: 409 conflict, nothing stored', async () => {
      const res = await tk.request('POST', '/identity-providers', {
        token: adminA,
        body: provider(idp.issuer, { id: 'a-copy', claims: { tenant: 'tenant' } }),
      });
      expect(res.status, res.text).to.equal(409);
      expect(res.body.error.code).to.equal('conflict');
      // The refusal does not say which tenant holds the pair.
      expect(res.body.error.message).not.to.include(TENANT_B);
      expect(await rowsFor(idp.issuer)).to.deep.equal([{ tenant_id: TENANT_B, id: 'b-sso', audience: AUDIENCE }]);
    });

    it('refuses a second registration of the pair in the same tenant', async () => {
      const res = await tk.request('POST', '/identity-providers', {
        token: adminB,
        body: provider(idp.issuer, { id: 'b-again' }),
      });
      expect(res.status, res.text).to.equal(409);
      expect(res.body.error.code).to.equal('conflict');
    });

    it('refuses a PATCH that moves another provider onto the pair, and keeps it unchanged', async () => {
      const own = await tk.request('POST', '/identity-providers', {
        token: adminA,
        body: provider(idp.issuer, { id: 'a-own', audience: 'https://a.test/api' }),
      });
      expect(own.status, own.text).to.equal(201);
      const moved = await tk.request('PATCH', '/identity-providers/a-own', {
        token: adminA,
        body: { audience: AUDIENCE },
      });
      expect(moved.status, moved.text).to.equal(409);
      expect(moved.body.error.code).to.equal('conflict');
      expect((await tk.request('GET', '/identity-providers/a-own', { token: adminA })).body.audience).to.equal(
        'https://a.test/api',
      );
      expect((await tk.request('DELETE', '/identity-providers/a-own', { token: adminA })).status).to.equal(204);
    });

    it("refuses a pair that the service's configuration trusts", async () => {
      const res = await tk.request('POST', '/identity-providers', {
        token: adminA,
        body: provider(configured.issuer, { id: 'a-shadow' }),
      });
      expect(res.status, res.text).to.equal(409);
      expect(await rowsFor(configured.issuer)).to.deep.equal([]);
    });

    it('lets only one of two concurrent registrations of a new pair win', async () => {
      const issuer = 'https://race.idp.test';
      const [a, b] = await Promise.all([
        tk.request('POST', '/identity-providers', {
          token: adminA,
          body: { id: 'race-a', issuer, audience: AUDIENCE },
        }),
        tk.request('POST', '/identity-providers', {
          token: adminB,
          body: { id: 'race-b', issuer, audience: AUDIENCE },
        }),
      ]);
      expect([a.status, b.status].sort(), `${a.text} ${b.text}`).to.deep.equal([201, 409]);
      expect((a.status === 409 ? a : b).body.error.code).to.equal('conflict');
      expect(await rowsFor(issuer)).to.have.length(1);
    });

    it('is enforced by the database too: an insert past the check is refused as 409 conflict', async () => {
      const err = await insertProvider(
        tk.kernel.database.knex,
        TENANT_A,
        'past-the-check',
        { issuer: idp.issuer, audience: AUDIENCE, algorithms: ['RS256'] },
        new Date(),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isApiError(err, 'conflict'), String(err)).to.equal(true);
      expect(await rowsFor(idp.issuer)).to.have.length(1);
    });
  });

  describe('a token signs in only to the tenant whose provider validated it', () => {
    const componentsOf = async (
      token: string,
      query = '',
    ): Promise<{ status: number; names: string[]; tenants: string[] }> => {
      const res = await tk.request('GET', `/components${query}`, { token });
      const items = (res.body?.items ?? []) as Array<{ name: string; tenant_id: string }>;
      return {
        status: res.status,
        names: items.map((c) => c.name),
        tenants: [...new Set(items.map((c) => c.tenant_id))],
      };
    };

    it("B's token works in B and sees only B's rows", async () => {
      const inB = await componentsOf(await idp.token('b-app'));
      expect(inB).to.deep.equal({ status: 200, names: ['b-only'], tenants: [TENANT_B] });
    });

    it("a request naming tenant A with B's token is the tenancy 404, on reads and writes", async () => {
      const token = await idp.token('b-app');
      const read = await tk.request('GET', `/components?tenant_id=${TENANT_A}`, { token });
      expect(read.status, read.text).to.equal(404);
      expect(read.body.error.code).to.equal('not_found');
      const write = await tk.request('POST', '/components', {
        token,
        body: { type: 'passthrough', tenant_id: TENANT_A, name: 'from-b' },
      });
      expect(write.status, write.text).to.equal(404);
      expect(await tk.kernel.database.knex('components').where({ name: 'from-b' })).to.have.length(0);
    });

    it("a tenant claim naming A does not move B's subject: unmapped it is ignored, the token stays in B", async () => {
      const token = await idp.token('b-app-claims-a');
      expect(await componentsOf(token)).to.deep.equal({ status: 200, names: ['b-only'], tenants: [TENANT_B] });
      expect((await componentsOf(token, `?tenant_id=${TENANT_A}`)).status).to.equal(404);
    });

    it('with the tenant claim mapped, a token claiming A is refused and one claiming B is accepted', async () => {
      const mapped = await tk.request('PATCH', '/identity-providers/b-sso', {
        token: adminB,
        body: { claims: { tenant: 'tenant' } },
      });
      expect(mapped.status, mapped.text).to.equal(200);
      try {
        const claimsA = await tk.request('GET', '/components', { token: await idp.token('b-app-claims-a') });
        expect(claimsA.status, claimsA.text).to.equal(401);
        expect(claimsA.body.error.code).to.equal('invalid_credentials');
        const claimsAasked = await tk.request('GET', `/components?tenant_id=${TENANT_A}`, {
          token: await idp.token('b-app-claims-a'),
        });
        expect(claimsAasked.status).to.equal(401);
        expect(await componentsOf(await idp.token('b-app-claims-b'))).to.deep.equal({
          status: 200,
          names: ['b-only'],
          tenants: [TENANT_B],
        });
      } finally {
        await tk.request('PATCH', '/identity-providers/b-sso', { token: adminB, body: { claims: {} } });
      }
    });

    it('the configured provider keeps its own tenant', async () => {
      const token = await configured.token('b-app-claims-a');
      const res = await componentsOf(token);
      expect(res.status).to.equal(200);
      expect((await componentsOf(token, `?tenant_id=${TENANT_A}`)).status).to.equal(404);
    });
  });
});
