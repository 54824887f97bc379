import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { connectDatabase } from '../../../../kernel/db/connect.js';
import { runMigrations } from '../../../../kernel/db/migrate.js';
import { createIdentityTables } from '../../../../plugins/identity/migrations/001_identity.js';
import { hashSecret, newSecret } from '../../../../plugins/identity/tokens/format.js';
import { onPostgres, startKernel } from '../../../support/kernel.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const ISSUER = 'https://corp.idp.test';
const AUDIENCE = 'https://runtime.test/api';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

describe('identity migration 002_identity_grants', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dataDir = onPostgres ? undefined : mkdtempSync(join(tmpdir(), 'identity-migration-'));
  const database = onPostgres ? { url: process.env.DATABASE_URL as string, schema } : { data_dir: dataDir as string };
  after(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives each provider pair to its first tenant, finds every token's minter, and strips deleted roles", async function () {
    this.timeout(120_000);
    /** Token id → its secret, for tokens written as the first version stored them. */
    const secrets = new Map<string, string>();
    const db = await connectDatabase({ pool_max: 2, ready_timeout_ms: 2000, ...database });
    try {
      await runMigrations(db.knex, [{ owner: 'identity', migrations: [createIdentityTables] }]);
      const knex = db.knex;
      await knex('identity_tenants').insert(['default', 'acme'].map((id) => ({ id, name: id, created_at: at(0) })));
      await knex('identity_roles').insert({
        tenant_id: 'default',
        id: 'kept',
        permissions: ['runtime:component:read'],
        created_at: at(0),
      });
      const user = (tenant_id: string, id: string, roles: string[]) => ({
        tenant_id,
        id,
        username: id,
        password_hash: 'x',
        roles,
        created_at: at(0),
        updated_at: at(0),
      });
      await knex('identity_users').insert([
        user('default', 'root', ['admin', 'account-admin', 'gone']),
        user('default', 'alice', ['viewer', 'kept', 'gone']),
        user('acme', 'carol', ['viewer']),
      ]);
      const provider = (tenant_id: string, id: string, minute: number) => ({
        tenant_id,
        id,
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['RS256'],
        default_roles: ['gone', 'viewer'],
        created_at: at(minute),
        updated_at: at(minute),
      });
      // acme registered the pair first; default's copy came later.
      await knex('identity_providers').insert([provider('acme', 'corp', 1), provider('default', 'copy', 2)]);
      const token = (tenant_id: string, id: string, created_by: string, roles = ['viewer']) => {
        const secret = newSecret('api_token');
        secrets.set(id, secret);
        return { tenant_id, id, name: id, secret_hash: hashSecret(secret), roles, created_by, created_at: at(3) };
      };
      await knex('identity_api_tokens').insert([
        token('default', 'tok_alice', 'alice', ['viewer', 'gone']),
        token('default', 'tok_chain', 'tok_alice'),
        token('default', 'tok_chain2', 'tok_chain'),
        // An account admin of default minted it into acme (whose users are others).
        token('acme', 'tok_root', 'root'),
        token('acme', 'tok_corp', 'corp:bob'),
        token('default', 'tok_sso', 'sso:carol'),
        token('default', 'tok_glass', 'break-glass'),
        token('default', 'tok_ghost', 'ghost'),
      ]);
    } finally {
      await db.close();
    }

    const k = await startKernel(
      {
        plugins: PLUGINS,
        database,
        settings: {
          identity: {
            oidc_providers: [{ id: 'sso', issuer: 'https://sso.test', audience: AUDIENCE, tenant_id: 'default' }],
          },
        },
      },
      { schema },
    );
    try {
      const knex = k.kernel.database.knex;
      expect(
        await knex('identity_providers').select('tenant_id', 'id', 'default_roles', 'allowed_roles'),
      ).to.deep.equal([{ tenant_id: 'acme', id: 'corp', default_roles: ['viewer'], allowed_roles: [] }]);
      const minters = await knex('identity_api_tokens')
        .orderBy('id')
        .select('id', 'minter_kind', 'minter_tenant_id', 'minter_id');
      expect(minters).to.deep.equal([
        { id: 'tok_alice', minter_kind: 'user', minter_tenant_id: 'default', minter_id: 'alice' },
        { id: 'tok_chain', minter_kind: 'user', minter_tenant_id: 'default', minter_id: 'alice' },
        { id: 'tok_chain2', minter_kind: 'user', minter_tenant_id: 'default', minter_id: 'alice' },
        { id: 'tok_corp', minter_kind: 'provider', minter_tenant_id: 'acme', minter_id: 'corp' },
        { id: 'tok_ghost', minter_kind: 'user', minter_tenant_id: 'default', minter_id: 'ghost' },
        { id: 'tok_glass', minter_kind: 'break_glass', minter_tenant_id: null, minter_id: null },
        { id: 'tok_root', minter_kind: 'user', minter_tenant_id: 'default', minter_id: 'root' },
        { id: 'tok_sso', minter_kind: 'config_provider', minter_tenant_id: null, minter_id: 'sso' },
      ]);
      expect(
        await knex('identity_users').where({ tenant_id: 'default' }).orderBy('id').select('id', 'roles'),
      ).to.deep.equal([
        { id: 'alice', roles: ['viewer', 'kept'] },
        { id: 'root', roles: ['admin', 'account-admin'] },
      ]);
      expect((await knex('identity_api_tokens').where({ id: 'tok_alice' }).first('roles')).roles).to.deep.equal([
        'viewer',
      ]);

      const status = async (id: string) =>
        (await k.request('GET', '/components', { token: secrets.get(id) as string })).status;
      for (const id of ['tok_alice', 'tok_chain', 'tok_chain2', 'tok_corp', 'tok_sso', 'tok_root'])
        expect(await status(id), id).to.equal(200);
      // Its minter is gone; and no break-glass key is configured here.
      for (const id of ['tok_ghost', 'tok_glass']) expect(await status(id), id).to.equal(401);
    } finally {
      await k.close();
    }
  });
});
