import { expect } from 'chai';
import { ACCOUNT_PERMISSION } from '../../../kernel/tenancy/step.js';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { createUser, login, loginAdmin, mintToken } from '../../support/identity.js';
import { startOidcProvider, type RunningProvider, type TestClient } from './oidc-provider.js';

/**
 * The RBAC suite's escalation cases (issue 11, item 3): nobody grants a permission they do not
 * hold — by role assignment, token minting, custom role creation or an identity provider's role
 * mapping; a deleted role's name never comes back to its old holders; an API token stops
 * working when the account that minted it is disabled or deleted.
 */

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'escalation password 01';
const IDENTITY_MANAGER = ['runtime:identity:read', 'runtime:identity:write', 'runtime:component:read'];

const CLIENTS: TestClient[] = [
  { id: 'claims-admin', secret: 'claims-admin-secret-0001', claims: { roles: ['admin'] } },
  {
    id: 'claims-admin-and-reader',
    secret: 'claims-admin-reader-0002',
    claims: { roles: ['admin', 'component-reader'] },
  },
];

function expectForbidden(res: HttpResult, naming: string): void {
  expect(res.status, res.text).to.equal(403);
  expect(res.body.error.code).to.equal('forbidden');
  expect(res.body.error.message).to.include(naming);
}

function expectRefusedCredential(res: HttpResult, why: string): void {
  expect(res.status, `${why}: ${res.text}`).to.equal(401);
  expect(res.body.error.code, why).to.equal('invalid_credentials');
}

describe('RBAC escalation', () => {
  let tk: TestKernel;
  let idp: RunningProvider;
  let root: string;
  let tenantAdmin: string;
  /** A user who may manage identity (runtime:identity:write) but is no admin. */
  let manager: string;

  const sessionOf = async (username: string, roles: string[]): Promise<string> => {
    await createUser(tk, root, { username, password: PASSWORD, roles });
    return (await login(tk, { tenant_id: 'default', username, password: PASSWORD })).access_token;
  };
  const createRole = (token: string, id: string, permissions: string[]) =>
    tk.request('POST', '/roles', { token, body: { id, permissions } });
  const rolesOf = async (table: string, id: string): Promise<string[]> =>
    ((await tk.kernel.database.knex(table).where({ tenant_id: 'default', id }).first('roles')) as { roles: string[] })
      .roles;

  before(async function () {
    this.timeout(120_000);
    idp = await startOidcProvider(CLIENTS);
    tk = await startKernel({ plugins: PLUGINS });
    root = await loginAdmin(tk);
    tenantAdmin = await sessionOf('tenant-admin', ['admin']);
    expect((await createRole(root, 'identity-manager', IDENTITY_MANAGER)).status).to.equal(201);
    expect((await createRole(root, 'component-reader', ['runtime:component:read'])).status).to.equal(201);
    manager = await sessionOf('manager', ['identity-manager']);
  });
  after(async () => {
    await tk?.close();
    await idp?.close();
  });

  describe("(a) a deleted role's name never comes back to its old holders", () => {
    it('a token, a user and a provider that held "harmless" do not gain its re-creation with runtime:account:admin', async () => {
      expect((await createRole(tenantAdmin, 'harmless', ['runtime:component:read'])).status).to.equal(201);
      const token = await mintToken(tk, tenantAdmin, ['harmless']);
      const holder = await sessionOf('harmless-holder', ['harmless']);
      const registered = await tk.request('POST', '/identity-providers', {
        token: tenantAdmin,
        body: {
          id: 'harmless-idp',
          issuer: 'https://harmless.idp.test',
          audience: 'https://runtime.test/harmless',
          default_roles: ['harmless'],
          allowed_roles: ['harmless', 'viewer'],
        },
      });
      expect(registered.status, registered.text).to.equal(201);
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);

      expect((await tk.request('DELETE', '/roles/harmless', { token: tenantAdmin })).status).to.equal(204);
      // Stripped from every holder in the deleting transaction.
      const tokenId = (
        (await tk.kernel.database
          .knex('identity_api_tokens')
          .where({ tenant_id: 'default', name: 'test token harmless' })
          .first('id')) as { id: string }
      ).id;
      expect(await rolesOf('identity_api_tokens', tokenId)).to.deep.equal([]);
      expect(await rolesOf('identity_users', 'harmless-holder')).to.deep.equal([]);
      const idpRow = await tk.request('GET', '/identity-providers/harmless-idp', { token: tenantAdmin });
      expect(idpRow.body).to.deep.include({ default_roles: [], allowed_roles: ['viewer'] });

      // The tenant admin may not re-create it with more than it holds (c); the account admin may.
      expectForbidden(
        await createRole(tenantAdmin, 'harmless', ['runtime:component:read', ACCOUNT_PERMISSION]),
        ACCOUNT_PERMISSION,
      );
      const recreated = await createRole(root, 'harmless', [
        'runtime:component:read',
        'runtime:component:write',
        ACCOUNT_PERMISSION,
      ]);
      expect(recreated.status, recreated.text).to.equal(201);

      for (const [who, credential] of [
        ['old token', token],
        ["old holder's session", holder],
      ] as const) {
        expectForbidden(await tk.request('GET', '/tenants', { token: credential }), ACCOUNT_PERMISSION);
        expectForbidden(
          await tk.request('POST', '/components', {
            token: credential,
            body: { type: 'passthrough', name: `by-${who.replace(/\W+/g, '-')}` },
          }),
          'runtime:component:write',
        );
      }
      expect(await rolesOf('identity_users', 'harmless-holder')).to.deep.equal([]);
    });
  });

  describe("(b) an identity provider's role mapping grants nothing its registrant could not", () => {
    const register = (token: string, id: string, extra: Record<string, unknown>) =>
      tk.request('POST', '/identity-providers', {
        token,
        body: { id, issuer: idp.issuer, audience: `https://runtime.test/${id}`, allow_insecure_http: true, ...extra },
      });

    it('refuses allowed_roles or default_roles beyond the registrant, naming the permissions', async () => {
      const allowed = await register(manager, 'greedy-allowed', { allowed_roles: ['admin'] });
      expectForbidden(allowed, 'runtime:component:write');
      expectForbidden(
        await register(manager, 'greedy-default', { default_roles: ['admin'] }),
        'runtime:component:write',
      );
      expect(
        await tk.kernel.database.knex('identity_providers').whereIn('id', ['greedy-allowed', 'greedy-default']),
      ).to.have.length(0);
    });

    it('by default honours no claimed role: a token claiming admin gets nothing', async () => {
      const res = await register(manager, 'claims-nothing', {});
      expect(res.status, res.text).to.equal(201);
      expect(res.body.allowed_roles).to.deep.equal([]);
      const token = await idp.token('claims-admin', 'https://runtime.test/claims-nothing');
      expectForbidden(await tk.request('GET', '/components', { token }), 'runtime:component:read');
      expectForbidden(await tk.request('GET', '/users', { token }), 'runtime:identity:read');
    });

    it('honours only the claimed roles listed in allowed_roles', async () => {
      const res = await register(manager, 'claims-capped', { allowed_roles: ['component-reader'] });
      expect(res.status, res.text).to.equal(201);
      const token = await idp.token('claims-admin-and-reader', 'https://runtime.test/claims-capped');
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);
      expectForbidden(
        await tk.request('POST', '/components', { token, body: { type: 'passthrough', name: 'by-claimed-admin' } }),
        'runtime:component:write',
      );
      expectForbidden(await tk.request('GET', '/users', { token }), 'runtime:identity:read');
    });

    it('refuses a non-admin changing a provider that grants admin, except switching it off', async () => {
      const res = await register(root, 'admin-mapping', { allowed_roles: ['admin'] });
      expect(res.status, res.text).to.equal(201);
      expectForbidden(
        await tk.request('PATCH', '/identity-providers/admin-mapping', {
          token: manager,
          body: { issuer: 'https://attacker.idp.test' },
        }),
        'runtime:component:write',
      );
      expectForbidden(
        await tk.request('PATCH', '/identity-providers/admin-mapping', {
          token: manager,
          body: { claims: { subject: 'email' } },
        }),
        'runtime:component:write',
      );
      expect((await tk.request('GET', '/identity-providers/admin-mapping', { token: root })).body).to.include({
        issuer: idp.issuer,
        enabled: true,
      });
      const off = await tk.request('PATCH', '/identity-providers/admin-mapping', {
        token: manager,
        body: { enabled: false },
      });
      expect(off.status, off.text).to.equal(200);
      expect(off.body.enabled).to.equal(false);
    });
  });

  describe('(c) a role manager cannot widen its own roles', () => {
    it('deleting a role it holds and re-creating it with more is refused; re-created as before, it is not handed back', async () => {
      expect((await createRole(root, 'worker', ['runtime:component:read'])).status).to.equal(201);
      expect(
        (
          await tk.request('PUT', '/users/manager/roles', {
            token: root,
            body: { roles: ['identity-manager', 'worker'] },
          })
        ).status,
      ).to.equal(200);

      expect((await tk.request('DELETE', '/roles/worker', { token: manager })).status).to.equal(204);
      expect(await rolesOf('identity_users', 'manager')).to.deep.equal(['identity-manager']);
      const wider = await createRole(manager, 'worker', ['runtime:component:read', 'runtime:component:write']);
      expectForbidden(wider, 'runtime:component:write');
      expect(
        await tk.kernel.database.knex('identity_roles').where({ tenant_id: 'default', id: 'worker' }),
      ).to.have.length(0);
      expectForbidden(await createRole(manager, 'worker', [ACCOUNT_PERMISSION]), ACCOUNT_PERMISSION);

      const same = await createRole(manager, 'worker', ['runtime:component:read']);
      expect(same.status, same.text).to.equal(201);
      expect(await rolesOf('identity_users', 'manager')).to.deep.equal(['identity-manager']);
      expectForbidden(
        await tk.request('POST', '/components', { token: manager, body: { type: 'passthrough', name: 'by-manager' } }),
        'runtime:component:write',
      );
    });

    it('nor assign or mint roles beyond its own', async () => {
      expectForbidden(
        await tk.request('PUT', '/users/manager/roles', {
          token: manager,
          body: { roles: ['identity-manager', 'builder'] },
        }),
        'runtime:component:write',
      );
      expectForbidden(
        await tk.request('POST', '/api-tokens', { token: manager, body: { name: 'wide', roles: ['admin'] } }),
        'runtime:component:write',
      );
    });
  });

  describe('an API token dies with the account that minted it', () => {
    it("refused while its minting user is disabled, also when minted by that user's token; back when re-enabled", async () => {
      const minter = await sessionOf('minter-disabled', ['admin']);
      const direct = await mintToken(tk, minter, ['admin']);
      const chained = await mintToken(tk, direct, ['viewer']);
      for (const token of [direct, chained])
        expect((await tk.request('GET', '/components', { token })).status).to.equal(200);

      expect(
        (await tk.request('PATCH', '/users/minter-disabled', { token: root, body: { disabled: true } })).status,
      ).to.equal(200);
      expectRefusedCredential(await tk.request('GET', '/components', { token: direct }), 'minted by a disabled user');
      expectRefusedCredential(
        await tk.request('GET', '/components', { token: chained }),
        'minted by a token of a disabled user',
      );

      expect(
        (await tk.request('PATCH', '/users/minter-disabled', { token: root, body: { disabled: false } })).status,
      ).to.equal(200);
      for (const token of [direct, chained])
        expect((await tk.request('GET', '/components', { token })).status).to.equal(200);
    });

    it('refused once its minting user is deleted, revoked, and not revived by a new user of the same id', async () => {
      const minter = await sessionOf('minter-deleted', ['admin']);
      const direct = await mintToken(tk, minter, ['admin'], { name: 'of minter-deleted' });
      const chained = await mintToken(tk, direct, ['viewer'], { name: 'of minter-deleted, chained' });
      const other = await mintToken(tk, root, ['viewer'], { name: 'of root' });

      const removed = await tk.request('DELETE', '/users/minter-deleted', { token: root });
      expect(removed.status, removed.text).to.equal(204);
      expectRefusedCredential(await tk.request('GET', '/components', { token: direct }), 'minted by a deleted user');
      expectRefusedCredential(
        await tk.request('GET', '/components', { token: chained }),
        'minted by a token of a deleted user',
      );
      expect((await tk.request('GET', '/components', { token: other })).status).to.equal(200);
      const listed = (await tk.request('GET', '/api-tokens?limit=500', { token: root })).body.items as Array<{
        name: string;
        revoked: boolean;
      }>;
      expect(listed.filter((t) => t.name.startsWith('of minter-deleted')).map((t) => t.revoked)).to.deep.equal([
        true,
        true,
      ]);
      const record = (await tk.kernel.database
        .knex('audit_records')
        .where({ operation: 'deleteUser', resource_id: 'minter-deleted' })
        .first('detail')) as { detail: unknown };
      const detail = typeof record.detail === 'string' ? JSON.parse(record.detail) : record.detail;
      expect(detail).to.include({ sessions_revoked: 1, api_tokens_revoked: 2 });

      await createUser(tk, root, { username: 'minter-deleted', password: PASSWORD, roles: ['admin'] });
      expectRefusedCredential(await tk.request('GET', '/components', { token: direct }), 'a new user has the old id');
    });

    it("minted with an identity provider's JWT: refused while the provider is disabled, revoked when it is deleted", async () => {
      const res = await tk.request('POST', '/identity-providers', {
        token: root,
        body: {
          id: 'minting-idp',
          issuer: idp.issuer,
          audience: 'https://runtime.test/minting',
          allowed_roles: ['admin'],
          allow_insecure_http: true,
        },
      });
      expect(res.status, res.text).to.equal(201);
      const jwt = await idp.token('claims-admin', 'https://runtime.test/minting');
      const token = await mintToken(tk, jwt, ['viewer'], { name: 'of minting-idp' });
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);

      expect(
        (await tk.request('PATCH', '/identity-providers/minting-idp', { token: root, body: { enabled: false } }))
          .status,
      ).to.equal(200);
      expectRefusedCredential(await tk.request('GET', '/components', { token }), 'its provider is disabled');
      expect(
        (await tk.request('PATCH', '/identity-providers/minting-idp', { token: root, body: { enabled: true } })).status,
      ).to.equal(200);
      expect((await tk.request('GET', '/components', { token })).status).to.equal(200);

      expect((await tk.request('DELETE', '/identity-providers/minting-idp', { token: root })).status).to.equal(204);
      expectRefusedCredential(await tk.request('GET', '/components', { token }), 'its provider is deleted');
      const row = await tk.kernel.database
        .knex('identity_api_tokens')
        .where({ tenant_id: 'default', name: 'of minting-idp' })
        .first('revoked_at', 'minter_kind', 'minter_id');
      expect(row).to.include({ minter_kind: 'provider', minter_id: 'minting-idp' });
      expect(row.revoked_at).to.not.equal(null);
    });
  });
});
