import { expect } from 'chai';
import { startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { loginAdmin } from '../../support/identity.js';

const PLUGINS = [
  'system',
  'identity',
  'audit',
  'logs',
  'components',
  'agent',
  { module: 'test/fixtures/third-party-plugin' },
];

/** A concrete path for a route template: every parameter is `id` (a row that exists or not). */
function concrete(template: string, id: string): string {
  return template.replace(/\{[^}]+\}/g, id);
}

/** The headers a HEAD must repeat from its GET: all but those that name the exchange itself. */
function describedHeaders(res: HttpResult): Record<string, string> {
  const own = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'content-length']);
  return Object.fromEntries([...res.headers].filter(([name]) => !own.has(name)));
}

describe('HEAD and OPTIONS on every route', function () {
  // Six plugins on an embedded database boot slowly on a busy machine.
  this.timeout(120000);
  let tk: TestKernel;
  let token: string;
  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    token = await loginAdmin(tk);
    expect(
      (await tk.request('POST', '/components', { token, body: { type: 'passthrough', id: 'probe', name: 'Probe' } }))
        .status,
    ).to.equal(201);
    expect((await tk.request('POST', '/notes', { token, body: { id: 'probe', title: 'Probe' } })).status).to.equal(201);
  });
  after(() => tk.close());

  it("answers HEAD on every GET route, exact and parameterised, with the GET's status and headers and no body", async () => {
    const gets = tk.kernel.catalog.routes.filter((r) => r.decl.method === 'GET').map((r) => r.path);
    expect(gets.some((path) => path.includes('{'))).to.equal(true);
    for (const template of gets) {
      for (const path of new Set([concrete(template, 'probe'), concrete(template, 'missing')])) {
        const get = await tk.request('GET', path, { token });
        const head = await tk.request('HEAD', path, { token });
        expect(head.status, `HEAD ${path}`).to.equal(get.status);
        expect(head.text, `HEAD ${path}`).to.equal('');
        expect(describedHeaders(head), `HEAD ${path}`).to.deep.equal(describedHeaders(get));
        // The length of the body it leaves out, where the GET's body does not change from call to call.
        const again = await tk.request('GET', path, { token });
        if (again.text === get.text)
          expect(head.headers.get('content-length'), `HEAD ${path}`).to.equal(String(Buffer.byteLength(get.text)));
      }
    }
  });

  it("answers HEAD on a parameterised path with the row's length, and 404 for a row that does not exist", async () => {
    const get = await tk.request('GET', '/components/probe', { token });
    const head = await tk.request('HEAD', '/components/probe', { token });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.match(/^application\/json/);
    expect(head.headers.get('content-length')).to.equal(String(Buffer.byteLength(get.text)));
    expect((await tk.request('HEAD', '/components/nothing-here', { token })).status).to.equal(404);
    // HEAD runs the GET's pipeline: no credential, no answer.
    expect((await tk.request('HEAD', '/components/probe')).status).to.equal(401);
  });

  it('answers OPTIONS on every known path, exact or parameterised, with 204 and the methods it takes in Allow', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const route of tk.kernel.catalog.routes) {
      const path = concrete(route.path, 'probe');
      const methods = byPath.get(path) ?? new Set<string>();
      methods.add(route.decl.method);
      if (route.decl.method === 'GET') methods.add('HEAD');
      byPath.set(path, methods);
    }
    expect([...byPath.keys()].some((p) => p.includes('probe'))).to.equal(true);
    for (const [path, methods] of byPath) {
      // No credential: OPTIONS describes the path, it reads no data.
      const res = await tk.request('OPTIONS', path);
      expect(res.status, path).to.equal(204);
      expect(res.text, path).to.equal('');
      const allowed = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(new Set(allowed), path).to.deep.equal(methods);
    }
  });

  it('answers OPTIONS and HEAD on an unknown path with 404 not_found', async () => {
    const options = await tk.request('OPTIONS', '/no/such/path');
    expect(options.status).to.equal(404);
    expect(options.body.error).to.include({ code: 'not_found', status: 404 });
    expect((await tk.request('HEAD', '/no/such/path', { token })).status).to.equal(404);
  });
});
