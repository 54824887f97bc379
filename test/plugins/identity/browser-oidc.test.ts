import { expect } from 'chai';
import { consoleHeaders, CookieJar } from '../../support/browser.js';
import { loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { type CodeFlowProvider, startCodeFlowProvider } from './oidc-code-provider.js';

/** A GET the way a browser navigates: no redirect followed, the jar's cookies sent and kept. */
async function navigate(tk: TestKernel, path: string, jar: CookieJar): Promise<Response> {
  const res = await fetch(`${tk.url}${path}`, {
    redirect: 'manual',
    headers: { accept: 'text/html', ...(jar.cookies.size > 0 ? { cookie: jar.header() } : {}) },
  });
  jar.take({ status: res.status, headers: res.headers, body: undefined, text: '' });
  return res;
}

describe('browser single sign-on (OIDC authorization code with PKCE)', () => {
  let tk: TestKernel;
  let idp: CodeFlowProvider;
  let admin: string;

  before(async function () {
    this.timeout(120_000);
    tk = await startKernel();
    admin = await loginAdmin(tk);
    idp = await startCodeFlowProvider({
      id: 'console-client',
      redirectUri: `${tk.url}/auth/browser/oidc/callback`,
      roles: { alice: ['builder', 'account-admin', 'not-allowed'] },
    });
    const res = await tk.request('POST', '/identity-providers', {
      token: admin,
      body: {
        id: 'corp',
        issuer: idp.issuer,
        audience: 'https://runtime.test/api',
        claims: { roles: 'roles' },
        algorithms: ['RS256'],
        default_roles: ['viewer'],
        allowed_roles: ['viewer', 'builder', 'account-admin'],
        allow_insecure_http: true,
        browser_client_id: 'console-client',
        display_name: 'Corp SSO',
      },
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.browser_client_id).to.equal('console-client');
    const jwtOnly = await tk.request('POST', '/identity-providers', {
      token: admin,
      body: { id: 'jwt-only', issuer: idp.issuer, audience: 'other-audience', allow_insecure_http: true },
    });
    expect(jwtOnly.status, jwtOnly.text).to.equal(201);
  });
  after(async () => {
    await tk?.close();
    await idp?.close();
  });

  /** Runs the whole flow for `account` and returns the browser's jar and the final redirect. */
  async function signIn(
    account: string,
    returnTo = '/console/streams?view=list',
  ): Promise<{ jar: CookieJar; location: string }> {
    const jar = new CookieJar();
    const start = await navigate(
      tk,
      `/auth/browser/oidc/start?tenant_id=default&provider=corp&return_to=${encodeURIComponent(returnTo)}`,
      jar,
    );
    expect(start.status, await start.text()).to.equal(302);
    const callback = await idp.signIn(start.headers.get('location') as string, account);
    expect(callback.origin).to.equal(new URL(tk.url).origin);
    const finish = await navigate(tk, `${callback.pathname}${callback.search}`, jar);
    expect(finish.status, await finish.text()).to.equal(302);
    return { jar, location: finish.headers.get('location') as string };
  }

  it('lists the providers a browser can use, by the name to show', async () => {
    const res = await tk.request('GET', '/auth/browser/providers?tenant_id=default');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.items).to.deep.equal([{ id: 'corp', name: 'Corp SSO' }]);
    const none = await tk.request('GET', '/auth/browser/providers?tenant_id=nobody');
    expect(none.body.items).to.deep.equal([]);
  });

  it('starts at the authorization endpoint with PKCE S256, state and nonce, bound to the browser by a Lax cookie', async () => {
    const jar = new CookieJar();
    const res = await navigate(tk, '/auth/browser/oidc/start?tenant_id=default&provider=corp', jar);
    expect(res.status).to.equal(302);
    const url = new URL(res.headers.get('location') as string);
    expect(url.origin).to.equal(idp.issuer);
    expect(url.searchParams.get('response_type')).to.equal('code');
    expect(url.searchParams.get('client_id')).to.equal('console-client');
    expect(url.searchParams.get('redirect_uri')).to.equal(`${tk.url}/auth/browser/oidc/callback`);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).to.have.length.greaterThan(20);
    expect(url.searchParams.get('nonce')).to.have.length.greaterThan(20);
    expect(url.searchParams.get('scope')).to.include('openid');
    const flow = res.headers.getSetCookie().find((c) => c.startsWith('runtime_oidc_flow='));
    expect(flow).to.match(/HttpOnly/);
    expect(flow).to.match(/SameSite=Lax/);
    expect(flow).to.match(/Path=\/auth\/browser\/oidc/);
    // The verifier never leaves the service.
    expect(res.headers.get('location')).to.not.include('code_verifier');
  });

  it('signs the subject in end to end: cookies set, roles mapped as for its JWTs, back to return_to', async () => {
    const { jar, location } = await signIn('alice');
    expect(location).to.equal('/console/streams?view=list');
    expect(jar.cookies.get('runtime_session')).to.match(/^sess_/);
    expect(jar.cookies.get('runtime_refresh')).to.match(/^rt_/);
    expect(jar.cookies.has('runtime_oidc_flow')).to.equal(false);
    const me = await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } });
    expect(me.status, me.text).to.equal(200);
    expect(me.body.user).to.include({
      id: 'corp:alice',
      tenant_id: 'default',
      kind: 'session',
      email: 'alice@example.test',
    });
    // Default role plus the claimed roles the provider allows; never account-wide scope.
    expect(me.body.roles).to.have.members(['viewer', 'builder', 'account-admin']);
    expect(me.body.account_admin).to.equal(false);
    expect(me.body.permissions).to.not.include('runtime:account:admin');
    expect(me.body.permissions).to.include('runtime:component:write');
    expect(me.body.session.id).to.match(/^ses-/);
    // An ordinary session: it refreshes and it is audited.
    const refresh = await tk.request('POST', '/auth/browser/refresh', { headers: consoleHeaders(tk, jar) });
    expect(refresh.status, refresh.text).to.equal(200);
    jar.take(refresh);
    expect((await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } })).status).to.equal(200);
    const audit = await tk.request('GET', '/audit?operation=finishBrowserOidc&limit=100', { token: admin });
    const record = (audit.body.items as Array<Record<string, any>>).find((r) => r.actor.subject_id === 'corp:alice');
    expect(record?.outcome).to.equal('success');
    expect(record?.detail.provider).to.equal('corp');
  });

  it('does not let a callback be replayed, nor finished in a browser that did not start it', async () => {
    const jar = new CookieJar();
    const start = await navigate(tk, '/auth/browser/oidc/start?tenant_id=default&provider=corp', jar);
    const callback = await idp.signIn(start.headers.get('location') as string, 'alice');
    const path = `${callback.pathname}${callback.search}`;
    const stranger = await navigate(tk, path, new CookieJar());
    expect(stranger.status).to.equal(401);
    expect(stranger.headers.getSetCookie().some((c) => c.startsWith('runtime_session='))).to.equal(false);
    const first = await navigate(tk, path, jar);
    expect(first.status).to.equal(302);
    const replay = await fetch(`${tk.url}${path}`, {
      redirect: 'manual',
      headers: { cookie: `runtime_oidc_flow=${'x'.repeat(43)}` },
    });
    expect(replay.status).to.equal(401);
  });

  it('sends a refusal back to return_to with its code, setting no session', async () => {
    const jar = new CookieJar();
    const start = await navigate(
      tk,
      '/auth/browser/oidc/start?tenant_id=default&provider=corp&return_to=/console/',
      jar,
    );
    const state = new URL(start.headers.get('location') as string).searchParams.get('state') as string;
    const res = await navigate(
      tk,
      `/auth/browser/oidc/callback?error=access_denied&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(idp.issuer)}`,
      jar,
    );
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal('/console/?sign_in_error=invalid_credentials');
    expect(jar.cookies.has('runtime_session')).to.equal(false);
  });

  it('never redirects to another origin', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await tk.request(
        'GET',
        `/auth/browser/oidc/start?tenant_id=default&provider=corp&return_to=${encodeURIComponent(returnTo)}`,
      );
      expect(res.status, returnTo).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
    }
  });

  it('refuses an unknown provider, or one without a browser client', async () => {
    for (const provider of ['nope', 'jwt-only']) {
      const res = await tk.request('GET', `/auth/browser/oidc/start?tenant_id=default&provider=${provider}`);
      expect(res.status, provider).to.equal(404);
    }
  });

  it("ends the provider's sessions when the provider is disabled", async () => {
    const { jar } = await signIn('alice');
    expect((await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } })).status).to.equal(200);
    const off = await tk.request('PATCH', '/identity-providers/corp', { token: admin, body: { enabled: false } });
    expect(off.status, off.text).to.equal(200);
    try {
      expect((await tk.request('GET', '/auth/me', { headers: { cookie: jar.header() } })).status).to.equal(401);
    } finally {
      await tk.request('PATCH', '/identity-providers/corp', { token: admin, body: { enabled: true } });
    }
  });
});
