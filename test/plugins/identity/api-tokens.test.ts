import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, createUser, login, loginAdmin, mintToken, movableClock } from '../../support/identity.js';
import { newSecret, parseSecret } from '../../../plugins/identity/tokens/format.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];
const PASSWORD = 'builder password 123';

describe('API tokens', () => {
  const time = movableClock();
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS }, { clock: time.clock });
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  describe('POST /api-tokens', () => {
    it('returns the sk_ secret once with the token record, and stores only its SHA-256', async () => {
      const res = await tk.request('POST', '/api-tokens', {
        token: admin,
        body: { name: 'ci', roles: ['viewer'], expires_in_days: 30 },
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.secret).to.match(/^sk_[0-9A-Za-z]{36}$/);
      const token = res.body.token;
      expect(token).to.include({
        name: 'ci',
        revoked: false,
        read_only: false,
        tenant_id: 'default',
        created_by: 'admin',
        last_used_at: null,
      });
      expect(token.roles).to.deep.equal(['viewer']);
      expect(Date.parse(token.expires_at) - time.clock.now().getTime()).to.be.within(
        30 * 86400_000 - 5000,
        30 * 86400_000 + 5000,
      );

      const row = await tk.kernel.database.knex('identity_api_tokens').where({ id: token.id }).first();
      expect(row.secret_hash).to.equal(createHash('sha256').update(res.body.secret).digest('hex'));
      expect(JSON.stringify(row)).to.not.include(res.body.secret);

      const list = await tk.request('GET', '/api-tokens?tenant_id=default', { token: admin });
      expect(list.status).to.equal(200);
      const listed = list.body.items.find((t: { id: string }) => t.id === token.id);
      expect(listed).to.deep.include({ id: token.id, name: 'ci', revoked: false });
      expect(list.text).to.not.include(res.body.secret);
      expect(list.text).to.not.include(row.secret_hash);
      expect(listed).to.not.have.property('secret');
    });

    it('is accepted as Authorization: Bearer and as X-API-Key, and records last use', async () => {
      const secret = await mintToken(tk, admin, ['viewer']);
      expect((await tk.request('GET', '/components', { token: secret })).status).to.equal(200);
      expect((await tk.request('GET', '/components', { headers: { 'x-api-key': secret } })).status).to.equal(200);
      const row = await tk.kernel.database
        .knex('identity_api_tokens')
        .where({ secret_hash: createHash('sha256').update(secret).digest('hex') })
        .first();
      expect(row.last_used_at).to.not.equal(null);
    });

    it('refuses roles that grant more than the minter holds (403 naming the permissions)', async () => {
      const role = await tk.request('POST', '/roles', {
        token: admin,
        body: { id: 'token-minter', permissions: ['runtime:identity:write', 'runtime:identity:read'] },
      });
      expect(role.status, role.text).to.equal(201);
      await createUser(tk, admin, {
        username: 'minting-builder',
        password: PASSWORD,
        roles: ['builder', 'token-minter'],
      });
      const builder = (await login(tk, { tenant_id: 'default', username: 'minting-builder', password: PASSWORD }))
        .access_token;

      const tooMuch = await tk.request('POST', '/api-tokens', {
        token: builder,
        body: { name: 'escalate', roles: ['account-admin'] },
      });
      expect(tooMuch.status).to.equal(403);
      expect(tooMuch.body.error.code).to.equal('forbidden');
      expect(tooMuch.body.error.message).to.equal(
        'The roles grant permissions you do not hold: runtime:account:admin.',
      );
      expect(await tk.kernel.database.knex('identity_api_tokens').where({ name: 'escalate' })).to.have.length(0);

      const fine = await tk.request('POST', '/api-tokens', {
        token: builder,
        body: { name: 'builder-ci', roles: ['builder'] },
      });
      expect(fine.status, fine.text).to.equal(201);
      // Exactly what the minter holds (builder + token-minter = admin's permissions) is allowed too.
      expect(
        (await tk.request('POST', '/api-tokens', { token: builder, body: { name: 'as-much', roles: ['admin'] } }))
          .status,
      ).to.equal(201);

      // A token minting tokens is held to its own roles too.
      const minterToken = await mintToken(tk, admin, ['token-minter']);
      const viaToken = await tk.request('POST', '/api-tokens', {
        token: minterToken,
        body: { name: 'x', roles: ['viewer'] },
      });
      expect(viaToken.status).to.equal(403);
      expect(viaToken.body.error.message).to.include('runtime:component:read');
    });

    it('refuses unknown roles with 400 pointing at the role', async () => {
      const res = await tk.request('POST', '/api-tokens', {
        token: admin,
        body: { name: 'x', roles: ['viewer', 'no-such-role'] },
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
      expect(res.body.error.details[0]).to.include({ in: 'body', pointer: '/roles/1' });
    });

    it('honours expires_in_days', async () => {
      const secret = await mintToken(tk, admin, ['viewer'], { expiresInDays: 1 });
      expect((await tk.request('GET', '/components', { token: secret })).status).to.equal(200);
      time.advance(25 * 3600);
      const res = await tk.request('GET', '/components', { token: secret });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
      admin = await loginAdmin(tk);
    });

    it('a read_only token may read but not write, whatever its roles', async () => {
      const secret = await mintToken(tk, admin, ['builder'], { readOnly: true });
      expect((await tk.request('GET', '/components', { token: secret })).status).to.equal(200);
      const write = await tk.request('POST', '/components', {
        token: secret,
        body: { type: 'passthrough', name: 'nope' },
      });
      expect(write.status).to.equal(403);
      expect(write.body.error.code).to.equal('forbidden');
      expect(await tk.kernel.database.knex('components').where({ name: 'nope' })).to.have.length(0);
    });
  });

  describe('DELETE /api-tokens/{id}', () => {
    it('revokes: the next request with the token is 401', async () => {
      const minted = await tk.request('POST', '/api-tokens', {
        token: admin,
        body: { name: 'short-lived', roles: ['viewer'] },
      });
      const { secret, token } = minted.body;
      expect((await tk.request('GET', '/components', { token: secret })).status).to.equal(200);
      const res = await tk.request('DELETE', `/api-tokens/${token.id}?tenant_id=default`, { token: admin });
      expect(res.status, res.text).to.equal(204);
      const after = await tk.request('GET', '/components', { token: secret });
      expect(after.status).to.equal(401);
      expect(after.body.error.code).to.equal('invalid_credentials');
      const list = await tk.request('GET', '/api-tokens', { token: admin });
      expect(list.body.items.find((t: { id: string }) => t.id === token.id).revoked).to.equal(true);
    });

    it("answers 404 for an unknown token and for another tenant's token", async () => {
      expect((await tk.request('DELETE', '/api-tokens/tok-unknown', { token: admin })).status).to.equal(404);
      await createTenant(tk, admin, 'other-co');
      const otherAdmin = await createUser(tk, admin, {
        tenantId: 'other-co',
        username: 'boss',
        password: PASSWORD,
        roles: ['admin'],
      });
      expect(otherAdmin.id).to.equal('boss');
      const boss = (await login(tk, { tenant_id: 'other-co', username: 'boss', password: PASSWORD })).access_token;
      const minted = await tk.request('POST', '/api-tokens', {
        token: admin,
        body: { name: 'default-only', roles: ['viewer'] },
      });
      const res = await tk.request('DELETE', `/api-tokens/${minted.body.token.id}?tenant_id=default`, { token: boss });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
      const mine = await tk.request('DELETE', `/api-tokens/${minted.body.token.id}`, { token: boss });
      expect(mine.status).to.equal(404);
      expect((await tk.request('GET', '/components', { token: minted.body.secret })).status).to.equal(200);
    });
  });

  describe('token format', () => {
    it('carries a checksum: a mistyped token is refused before any database read', async () => {
      const good = newSecret('api_token');
      expect(parseSecret(good)).to.equal('api_token');
      const flipped = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
      expect(parseSecret(flipped)).to.equal(null);
      expect(parseSecret(`${good}x`)).to.equal(null);
      expect(parseSecret(`sess_${good.slice(3)}`)).to.equal(null);

      const queries: string[] = [];
      const listener = (q: { sql: string }) => queries.push(q.sql);
      tk.kernel.database.knex.on('query', listener);
      try {
        for (const bad of [flipped, 'sk_short', `sess_${good.slice(3)}`]) {
          const res = await tk.request('GET', '/components', { token: bad });
          expect(res.status, bad).to.equal(401);
          expect(res.body.error.code).to.equal('invalid_credentials');
          const viaHeader = await tk.request('GET', '/components', { headers: { 'x-api-key': bad } });
          expect(viaHeader.status).to.equal(401);
        }
        expect(queries.filter((sql) => sql.includes('identity_'))).to.deep.equal([]);
        // Control: a well-formed but unknown token is looked up.
        expect((await tk.request('GET', '/components', { token: newSecret('api_token') })).status).to.equal(401);
        expect(queries.some((sql) => sql.includes('identity_api_tokens'))).to.equal(true);
      } finally {
        tk.kernel.database.knex.removeListener('query', listener);
      }
    });

    it('secrets carry at least 160 random bits and never repeat', () => {
      const seen = new Set<string>();
      for (let i = 0; i < 2000; i++) seen.add(newSecret('session'));
      expect(seen.size).to.equal(2000);
      // 30 base62 characters drawn uniformly: 30 × log2(62) ≈ 178.6 bits.
      expect(30 * Math.log2(62)).to.be.greaterThan(160);
      const bodies = [...seen].map((s) => s.slice('sess_'.length, 'sess_'.length + 30));
      const chars = new Set(bodies.join(''));
      expect(chars.size).to.equal(62);
    });
  });
});
