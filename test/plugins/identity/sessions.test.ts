import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, login, movableClock } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];

describe('sessions', () => {
  const time = movableClock();
  let tk: TestKernel;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS }, { clock: time.clock });
  });
  after(() => tk.close());

  async function sessionRow(id: string): Promise<Record<string, any>> {
    return tk.kernel.database.knex('identity_sessions').where({ id }).first();
  }

  describe('POST /auth/login', () => {
    it('returns sess_ and rt_ tokens expiring in 15 minutes, subject and tenant', async () => {
      const before = time.clock.now().getTime();
      const res = await tk.request('POST', '/auth/login', { body: bootstrapCredentials() });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.access_token).to.match(/^sess_[0-9A-Za-z]{36}$/);
      expect(res.body.refresh_token).to.match(/^rt_[0-9A-Za-z]{36}$/);
      expect(res.body.subject_id).to.equal('admin');
      expect(res.body.tenant_id).to.equal('default');
      expect(res.body.expires_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      const lifetime = Date.parse(res.body.expires_at) - before;
      expect(lifetime).to.be.within(15 * 60_000 - 2000, 15 * 60_000 + 2000);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const row = await sessionRow(res.body.session_id);
      expect(row.subject_id).to.equal('admin');
      expect(row.revoked_at).to.equal(null);
    });
  });

  describe('life cycle', () => {
    it('uses, expires, refreshes (both rotate) and logs out', async () => {
      const first = await login(tk, bootstrapCredentials());
      expect((await tk.request('GET', '/components', { token: first.access_token })).status).to.equal(200);

      time.advance(16 * 60);
      const expired = await tk.request('GET', '/components', { token: first.access_token });
      expect(expired.status).to.equal(401);
      expect(expired.body.error.code).to.equal('invalid_credentials');

      const refreshed = await tk.request('POST', '/auth/refresh', { body: { refresh_token: first.refresh_token } });
      expect(refreshed.status, refreshed.text).to.equal(200);
      expect(refreshed.body.access_token).to.not.equal(first.access_token);
      expect(refreshed.body.refresh_token).to.not.equal(first.refresh_token);
      expect(refreshed.body.session_id).to.equal(first.session_id);
      expect(Date.parse(refreshed.body.expires_at)).to.be.greaterThan(time.clock.now().getTime() + 14 * 60_000);
      expect((await sessionRow(first.session_id)).generation).to.equal(2);

      expect((await tk.request('GET', '/components', { token: refreshed.body.access_token })).status).to.equal(200);

      const out = await tk.request('POST', '/auth/logout', { token: refreshed.body.access_token });
      expect(out.status, out.text).to.equal(204);
      const after = await tk.request('GET', '/components', { token: refreshed.body.access_token });
      expect(after.status).to.equal(401);
      const row = await sessionRow(first.session_id);
      expect(row.revoked_reason).to.equal('logout');
      const refreshAfterLogout = await tk.request('POST', '/auth/refresh', {
        body: { refresh_token: refreshed.body.refresh_token },
      });
      expect(refreshAfterLogout.status).to.equal(401);
    });

    it('refuses a refresh token once the session has outlived its refresh lifetime', async () => {
      const session = await login(tk, bootstrapCredentials());
      time.advance(8 * 24 * 3600);
      const res = await tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
    });
  });

  describe('POST /auth/refresh', () => {
    it('revokes the session when a rotated-out refresh token is reused, and audits it', async () => {
      const session = await login(tk, bootstrapCredentials());
      const rotated = await tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } });
      expect(rotated.status).to.equal(200);

      const reuse = await tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } });
      expect(reuse.status).to.equal(401);
      expect(reuse.body.error.code).to.equal('invalid_credentials');

      // The whole family is dead: the newest access and refresh tokens too.
      expect((await tk.request('GET', '/components', { token: rotated.body.access_token })).status).to.equal(401);
      expect(
        (await tk.request('POST', '/auth/refresh', { body: { refresh_token: rotated.body.refresh_token } })).status,
      ).to.equal(401);
      const row = await sessionRow(session.session_id);
      expect(row.revoked_reason).to.equal('refresh_token_reuse');

      const audit = await tk.kernel.database
        .knex('audit_records')
        .where({ operation: 'refreshSession', resource_id: session.session_id, status: 401, severity: 'critical' });
      expect(audit).to.have.length(1);
      const detail = typeof audit[0].detail === 'string' ? JSON.parse(audit[0].detail) : audit[0].detail;
      expect(detail).to.include({ event: 'refresh_token_reuse', session_revoked: true });
    });

    it('lets exactly one of several concurrent refreshes with one token succeed', async () => {
      const session = await login(tk, bootstrapCredentials());
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 401, 401, 401, 401, 401]);
      expect((await sessionRow(session.session_id)).generation).to.equal(2);
      const history = await tk.kernel.database
        .knex('identity_refresh_history')
        .where({ session_id: session.session_id });
      expect(history).to.have.length(1);
    });

    it('refuses a malformed refresh token and an access token in its place', async () => {
      const session = await login(tk, bootstrapCredentials());
      // The edited token must differ from the real one whatever its last character is.
      const edited = `${session.refresh_token.slice(0, -1)}${session.refresh_token.endsWith('x') ? 'y' : 'x'}`;
      for (const refresh_token of ['rt_nope', session.access_token, edited]) {
        const res = await tk.request('POST', '/auth/refresh', { body: { refresh_token } });
        expect(res.status, refresh_token).to.equal(401);
        expect(res.body.error.code).to.equal('invalid_credentials');
      }
      const missing = await tk.request('POST', '/auth/refresh', { body: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body.error.code).to.equal('validation_error');
    });
  });

  describe('POST /auth/logout-all and GET /auth/sessions', () => {
    it('lists active sessions without secrets and revokes them all', async () => {
      const a = await login(tk, bootstrapCredentials());
      const b = await login(tk, bootstrapCredentials());
      const list = await tk.request('GET', '/auth/sessions', { token: a.access_token });
      expect(list.status, list.text).to.equal(200);
      const ids = list.body.items.map((s: { id: string }) => s.id);
      expect(ids).to.include.members([a.session_id, b.session_id]);
      expect(list.body.items.find((s: { id: string }) => s.id === a.session_id).current).to.equal(true);
      expect(list.body.items.find((s: { id: string }) => s.id === b.session_id).current).to.equal(false);
      for (const secret of [a.access_token, a.refresh_token, b.access_token, b.refresh_token])
        expect(list.text).to.not.include(secret);
      expect(list.text).to.not.match(/hash/);

      const all = await tk.request('POST', '/auth/logout-all', { token: a.access_token });
      expect(all.status, all.text).to.equal(204);
      expect((await tk.request('GET', '/components', { token: a.access_token })).status).to.equal(401);
      expect((await tk.request('GET', '/components', { token: b.access_token })).status).to.equal(401);
      const active = await tk.kernel.database
        .knex('identity_sessions')
        .where({ tenant_id: 'default', subject_id: 'admin' })
        .whereNull('revoked_at');
      expect(active).to.have.length(0);
    });

    it('answers logout with a non-session credential with 400', async () => {
      const session = await login(tk, bootstrapCredentials());
      const minted = await tk.request('POST', '/api-tokens', {
        token: session.access_token,
        body: { name: 'ci', roles: ['viewer'] },
      });
      const res = await tk.request('POST', '/auth/logout', { token: minted.body.secret });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('bad_request');
    });

    it('needs a credential', async () => {
      const res = await tk.request('POST', '/auth/logout');
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('authentication_required');
    });
  });
});
