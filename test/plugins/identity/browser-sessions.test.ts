import { expect } from 'chai';
import { browserLogin, consoleHeaders, CookieJar } from '../../support/browser.js';
import { bootstrapCredentials, createUser, login, loginAdmin, mintToken } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

const VIEWER = { tenant_id: 'default', username: 'browser-viewer', password: 'viewer-password-0001' };

/** The attributes of one Set-Cookie line, lower-cased names (`httponly`, `path`, ...). */
function attributes(line: string): Map<string, string> {
  const [, ...parts] = line.split(';');
  return new Map(
    parts.map((part) => {
      const [name = '', value = ''] = part.trim().split('=');
      return [name.toLowerCase(), value];
    }),
  );
}

describe('browser sessions in cookies', () => {
  let tk: TestKernel;
  let admin: string;

  before(async function () {
    this.timeout(120_000);
    tk = await startKernel();
    admin = await loginAdmin(tk);
    await createUser(tk, admin, { ...VIEWER, roles: ['viewer'] });
  });
  after(() => tk?.close());

  /** Audit records of refused calls of one operation with one error code. */
  /** Audit records of refused calls of one operation with one error code, from a tenant's trail or the account's. */
  async function refusals(operation: string, code: string, trail = '/audit?'): Promise<Array<Record<string, any>>> {
    const res = await tk.request('GET', `${trail}operation=${operation}&status=refused&limit=1000`, { token: admin });
    expect(res.status, res.text).to.equal(200);
    return (res.body.items as Array<Record<string, any>>).filter((r) => r.error_code === code);
  }

  describe('POST /auth/browser/login', () => {
    it('sets the access and refresh cookies, HttpOnly and SameSite=Strict, not Secure over plain http', async () => {
      const res = await tk.request('POST', '/auth/browser/login', {
        body: bootstrapCredentials(),
        headers: consoleHeaders(tk),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.user).to.deep.equal({ id: 'admin', username: 'admin', tenant_id: 'default' });
      expect(Date.parse(res.body.expires_at) - Date.now()).to.be.within(800_000, 901_000);
      expect(res.body).to.not.have.property('access_token');
      expect(res.text).to.not.match(/sess_|rt_/);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const set = res.headers.getSetCookie();
      const session = set.find((c) => c.startsWith('runtime_session=sess_'));
      const refresh = set.find((c) => c.startsWith('runtime_refresh=rt_'));
      expect(session, set.join('\n')).to.be.a('string');
      expect(refresh, set.join('\n')).to.be.a('string');
      const s = attributes(session as string);
      const r = attributes(refresh as string);
      expect(s.get('path')).to.equal('/');
      expect(r.get('path')).to.equal('/auth/browser');
      for (const a of [s, r]) {
        expect(a.has('httponly')).to.equal(true);
        expect(a.get('samesite')).to.equal('Strict');
        expect(a.has('secure')).to.equal(false);
      }
      expect(Number(s.get('max-age'))).to.be.within(800, 900);
    });

    it('refuses a sign-in without the CSRF header or from a foreign origin (403 csrf_rejected, audited)', async () => {
      const bare = await tk.request('POST', '/auth/browser/login', { body: bootstrapCredentials() });
      expect(bare.status).to.equal(403);
      expect(bare.body.error.code).to.equal('csrf_rejected');
      expect(bare.headers.getSetCookie()).to.deep.equal([]);
      const foreign = await tk.request('POST', '/auth/browser/login', {
        body: bootstrapCredentials(),
        headers: { 'x-runtime-csrf': '1', origin: 'https://evil.example' },
      });
      expect(foreign.status).to.equal(403);
      expect(foreign.body.error.code).to.equal('csrf_rejected');
      // No credential names a tenant: the records go to the account-wide trail.
      expect((await refusals('browserLogin', 'csrf_rejected', '/audit/account?')).length).to.be.at.least(2);
    });

    it('refuses a wrong password with the same 401 as /auth/login, and counts it for the lockout', async () => {
      const res = await tk.request('POST', '/auth/browser/login', {
        body: { ...VIEWER, password: 'not-the-password-0000' },
        headers: consoleHeaders(tk),
      });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
      expect(res.headers.getSetCookie()).to.deep.equal([]);
      const user = await tk.request('GET', '/users?limit=100', { token: admin });
      const row = (user.body.items as Array<Record<string, any>>).find((u) => u.username === VIEWER.username);
      expect(row?.failed_logins ?? row?.failed_login_count ?? 1).to.be.at.least(1);
      // A success resets the counter, as /auth/login's does.
      await browserLogin(tk, VIEWER);
    });

    it('is Secure when a trusted proxy says the request came over TLS, and not when the proxy is not trusted', async function () {
      // Two more kernels boot here.
      this.timeout(240_000);
      const trusted = await startKernel({ http: { trust_proxy: true } });
      const untrusted = await startKernel();
      try {
        for (const [kernel, secure] of [
          [trusted, true],
          [untrusted, false],
        ] as const) {
          const res = await kernel.request('POST', '/auth/browser/login', {
            body: bootstrapCredentials(),
            headers: {
              'x-runtime-csrf': '1',
              'x-forwarded-proto': 'https',
              origin: `https://${new URL(kernel.url).host}`,
            },
          });
          expect(res.status, res.text).to.equal(200);
          for (const line of res.headers.getSetCookie()) expect(attributes(line).has('secure')).to.equal(secure);
        }
      } finally {
        await Promise.all([trusted.close(), untrusted.close()]);
      }
    });
  });

  describe('the cookie as a credential', () => {
    it('authenticates reads without any header of the console', async () => {
      const jar = await browserLogin(tk, bootstrapCredentials());
      const res = await tk.request('GET', '/users?limit=5', { headers: { cookie: jar.header() } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.items).to.be.an('array');
    });

    it('refuses a change without the CSRF header, with a foreign Origin or cross-site, and records it', async () => {
      const jar = await browserLogin(tk, bootstrapCredentials());
      const body = { id: 'csrf-probe', permissions: ['runtime:component:read'] };
      const attempts: Array<Record<string, string>> = [
        { cookie: jar.header(), origin: new URL(tk.url).origin },
        { cookie: jar.header(), 'x-runtime-csrf': '1', origin: 'http://attacker.example' },
        { cookie: jar.header(), 'x-runtime-csrf': '1', origin: 'null' },
        { cookie: jar.header(), 'x-runtime-csrf': '1', 'sec-fetch-site': 'cross-site' },
        { cookie: jar.header(), 'x-runtime-csrf': '1' },
      ];
      for (const headers of attempts) {
        const res = await tk.request('POST', '/roles', { body, headers });
        expect(res.status, JSON.stringify(headers)).to.equal(403);
        expect(res.body.error.code).to.equal('csrf_rejected');
      }
      const roles = await tk.request('GET', '/roles?limit=200', { token: admin });
      expect((roles.body.items as Array<{ id: string }>).map((r) => r.id)).to.not.include('csrf-probe');
      const records = await refusals('createRole', 'csrf_rejected');
      expect(records.length).to.be.at.least(attempts.length);
      // The refused call is attributed to the cookie's subject, in its tenant's trail.
      expect(records[0]?.actor.subject_id).to.equal('admin');
      expect(records[0]?.actor.credential_kind).to.equal('session');
      expect(records[0]?.status).to.equal(403);
    });

    it('lets a change through with the header and this origin (or Sec-Fetch-Site: same-origin)', async () => {
      const jar = await browserLogin(tk, bootstrapCredentials());
      const first = await tk.request('POST', '/roles', {
        body: { id: 'made-in-browser', permissions: ['runtime:component:read'] },
        headers: consoleHeaders(tk, jar),
      });
      expect(first.status, first.text).to.equal(201);
      const second = await tk.request('POST', '/roles', {
        body: { id: 'made-in-browser-2', permissions: ['runtime:component:read'] },
        headers: { cookie: jar.header(), 'x-runtime-csrf': '1', 'sec-fetch-site': 'same-origin' },
      });
      expect(second.status, second.text).to.equal(201);
      const audit = await tk.request('GET', '/audit?operation=createRole&status=success&limit=100', { token: admin });
      const record = (audit.body.items as Array<Record<string, any>>).find((r) => r.resource_id === 'made-in-browser');
      expect(record?.actor.credential_kind).to.equal('session');
    });

    it('leaves Bearer and API-key calls alone: no CSRF header needed, and a cookie beside them is ignored', async () => {
      const viewerJar = await browserLogin(tk, VIEWER);
      const res = await tk.request('POST', '/roles', {
        token: admin,
        body: { id: 'bearer-made', permissions: ['runtime:component:read'] },
        headers: { cookie: viewerJar.header(), origin: 'http://attacker.example' },
      });
      expect(res.status, res.text).to.equal(201);
      const key = await mintToken(tk, admin, ['admin']);
      const byKey = await tk.request('POST', '/roles', {
        body: { id: 'key-made', permissions: ['runtime:component:read'] },
        headers: { 'x-api-key': key, cookie: viewerJar.header() },
      });
      expect(byKey.status, byKey.text).to.equal(201);
    });

    it('is refused once its session is revoked elsewhere', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const bearer = await login(tk, VIEWER);
      const all = await tk.request('POST', '/auth/logout-all', { token: bearer.access_token });
      expect(all.status).to.equal(204);
      const res = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
    });
  });

  describe('POST /auth/browser/refresh', () => {
    it('rotates both cookies; the old access cookie stops working', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const before = new Map(jar.cookies);
      const res = await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk, jar) });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.have.keys(['expires_at', 'refresh_expires_at']);
      jar.take(res);
      expect(jar.cookies.get('runtime_session')).to.match(/^sess_/);
      expect(jar.cookies.get('runtime_session')).to.not.equal(before.get('runtime_session'));
      expect(jar.cookies.get('runtime_refresh')).to.not.equal(before.get('runtime_refresh'));
      const fresh = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
      expect(fresh.status).to.equal(200);
      const stale = await tk.request('GET', '/auth/me', {
        headers: { cookie: `runtime_session=${before.get('runtime_session')}` },
      });
      expect(stale.status).to.equal(401);
    });

    it('revokes the whole session when a rotated-out refresh cookie comes back', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const stolen = new CookieJar();
      for (const [name, value] of jar.cookies) stolen.cookies.set(name, value);
      jar.take(await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk, jar) }));
      const reuse = await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk, stolen) });
      expect(reuse.status).to.equal(401);
      expect(reuse.body.error.code).to.equal('invalid_credentials');
      const current = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
      expect(current.status).to.equal(401);
      const next = await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk, jar) });
      expect(next.status).to.equal(401);
    });

    it('answers 401 without a refresh cookie, and 403 without the CSRF header', async () => {
      const none = await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk) });
      expect(none.status).to.equal(401);
      const jar = await browserLogin(tk, VIEWER);
      const forged = await tk.request('POST', '/auth/browser/refresh', { headers: { cookie: jar.header() } });
      expect(forged.status).to.equal(403);
      expect(forged.body.error.code).to.equal('csrf_rejected');
    });
  });

  describe('POST /auth/browser/logout', () => {
    it('revokes this session only and clears both cookies', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const other = await browserLogin(tk, VIEWER);
      const cookie = jar.header();
      const res = await tk.request('POST', '/auth/browser/logout', { headers: consoleHeaders(tk, jar) });
      expect(res.status).to.equal(204);
      const cleared = jar.take(res);
      expect(cleared).to.have.length(2);
      for (const line of cleared) expect(attributes(line).get('max-age')).to.equal('0');
      expect(jar.cookies.size).to.equal(0);
      expect((await tk.request('GET', '/auth/me', { headers: { cookie } })).status).to.equal(401);
      expect((await tk.request('GET', '/auth/me', { headers: { cookie: other.header() } })).status).to.equal(200);
    });

    it('with everywhere, revokes every session of the subject, Bearer ones included', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const other = await browserLogin(tk, VIEWER);
      const bearer = await login(tk, VIEWER);
      const res = await tk.request('POST', '/auth/browser/logout', {
        body: { everywhere: true },
        headers: consoleHeaders(tk, jar),
      });
      expect(res.status).to.equal(204);
      expect((await tk.request('GET', '/auth/me', { headers: { cookie: other.header() } })).status).to.equal(401);
      expect((await tk.request('GET', '/auth/me', { token: bearer.access_token })).status).to.equal(401);
      const audit = await tk.request('GET', '/audit?operation=browserLogout&limit=100', { token: admin });
      const record = (audit.body.items as Array<Record<string, any>>).find((r) => r.detail?.everywhere === true);
      expect(record?.detail.sessions_revoked).to.be.at.least(3);
    });

    it('answers 204 and clears the cookies when there is no session left', async () => {
      const res = await tk.request('POST', '/auth/browser/logout', {
        headers: { ...consoleHeaders(tk), cookie: 'runtime_session=sess_gone; runtime_refresh=rt_gone' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.getSetCookie()).to.have.length(2);
    });
  });

  describe('GET /auth/me', () => {
    it('describes an admin signed in through the browser', async () => {
      const jar = await browserLogin(tk, bootstrapCredentials());
      const res = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.user).to.include({ id: 'admin', username: 'admin', tenant_id: 'default', kind: 'session' });
      expect(res.body.tenant_id).to.equal('default');
      expect(res.body.roles).to.include.members(['admin', 'account-admin']);
      expect(res.body.account_admin).to.equal(true);
      expect(res.body.permissions).to.include.members(['runtime:account:admin', 'runtime:identity:write']);
      expect(res.body.permissions).to.deep.equal([...res.body.permissions].sort());
      expect(res.body.session.id).to.match(/^ses-/);
      expect(Date.parse(res.body.session.expires_at)).to.be.greaterThan(Date.now());
    });

    it('describes a viewer: reads only, no account scope', async () => {
      const jar = await browserLogin(tk, VIEWER);
      const res = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.user.username).to.equal(VIEWER.username);
      expect(res.body.roles).to.deep.equal(['viewer']);
      expect(res.body.account_admin).to.equal(false);
      expect(res.body.permissions.length).to.be.greaterThan(0);
      for (const permission of res.body.permissions as string[]) expect(permission).to.match(/:read$/);
    });

    it('answers for an API token too, without a session', async () => {
      const key = await mintToken(tk, admin, ['viewer']);
      const res = await tk.request('GET', '/auth/me', { token: key });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.user.kind).to.equal('api_token');
      expect(res.body.user.username).to.equal(null);
      expect(res.body.session).to.equal(null);
    });

    it('needs a credential', async () => {
      const res = await tk.request('GET', '/auth/me');
      expect(res.status).to.equal(401);
    });
  });
});
