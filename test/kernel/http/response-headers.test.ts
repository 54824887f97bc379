import { get } from 'node:http';
import { expect } from 'chai';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, loginAdmin } from '../../support/identity.js';

const PLUGINS = [
  'system',
  'identity',
  'audit',
  'logs',
  'components',
  'agent',
  { module: 'test/fixtures/third-party-plugin' },
];

function expectGuarded(res: HttpResult, what: string): void {
  expect(res.headers.get('x-content-type-options'), what).to.equal('nosniff');
  expect(res.headers.get('cache-control'), what).to.equal('no-store');
}

describe('headers on every response: nosniff, and no-store for what holds tenant data or credentials', function () {
  this.timeout(120000);
  let tk: TestKernel;
  let token: string;
  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    token = await loginAdmin(tk);
  });
  after(() => tk.close());

  it('keeps an idle connection open longer than clients keep theirs, and says so (Keep-Alive: timeout=65)', async () => {
    // A server closing first (Node's default is 5 s; fetch keeps 4 s) races a client reusing the socket.
    const header = await new Promise<string | string[] | undefined>((resolve, reject) => {
      get(`${tk.url}/health`, (res) => {
        res.resume();
        resolve(res.headers['keep-alive']);
      }).on('error', reject);
    });
    expect(header).to.equal('timeout=65');
  });

  it('sends both on every route of every plugin when the caller has no credential', async () => {
    expect(tk.kernel.catalog.routes.length).to.be.above(30);
    for (const route of tk.kernel.catalog.routes) {
      const path = route.path.replace(/\{[^}]+\}/g, 'probe');
      const res = await tk.request(route.decl.method, path, route.decl.method === 'GET' ? {} : { body: {} });
      expect(res.status, `${route.decl.method} ${path}`).to.be.below(500);
      expectGuarded(res, `${route.decl.method} ${path} → ${res.status}`);
    }
  });

  it('sends both on every read of every plugin that answers with data', async () => {
    expect(
      (await tk.request('POST', '/components', { token, body: { type: 'passthrough', id: 'held', name: 'Held' } }))
        .status,
    ).to.equal(201);
    for (const route of tk.kernel.catalog.routes.filter((r) => r.decl.method === 'GET')) {
      const path = route.path.replace(/\{[^}]+\}/g, 'held');
      const res = await tk.request('GET', path, { token });
      expectGuarded(res, `GET ${path} → ${res.status}`);
    }
  });

  it('sends both on credentials, created rows, and errors of the HTTP layer itself', async () => {
    const login = await tk.request('POST', '/auth/login', { body: bootstrapCredentials() });
    expect(login.status).to.equal(200);
    expectGuarded(login, 'a sign-in');
    const refused = await tk.request('POST', '/auth/login', {
      body: { ...bootstrapCredentials(), password: 'wrong-password-0000' },
    });
    expect(refused.status).to.equal(401);
    expectGuarded(refused, 'a refused sign-in');
    const created = await tk.request('POST', '/components', {
      token,
      body: { type: 'passthrough', id: 'fresh', name: 'Fresh' },
    });
    expect(created.status).to.equal(201);
    expectGuarded(created, 'a created row');
    const cases: Array<[string, string, Parameters<TestKernel['request']>[2]]> = [
      ['GET', '/no/such/path', {}],
      ['DELETE', '/health', {}],
      ['OPTIONS', '/components', {}],
      ['POST', '/components', { token, raw: '{"id": ' }],
      ['POST', '/components', { token, raw: 'x', contentType: 'text/plain' }],
    ];
    for (const [method, path, options] of cases) {
      const res = await tk.request(method, path, options);
      expectGuarded(res, `${method} ${path} → ${res.status}`);
    }
  });
});
