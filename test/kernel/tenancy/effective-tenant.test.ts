import { expect } from 'chai';
import { PUBLIC } from '../../../kernel/manifest/types.js';
import type { CompiledRoute } from '../../../kernel/types.js';
import { createTenant, createUser, login, loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/**
 * The effective tenant, generated over every GET operation of the served /openapi.json
 * (DESIGN.md "effective tenant", spec §4/§5):
 *  - every read takes `tenant_id` in the query: naming one's own tenant answers exactly as not
 *    naming it (same status), never a validation error about the field;
 *  - every response of an authenticated call names the tenant it acted in (X-Tenant-Id), errors
 *    included;
 *  - a caller's X-Service-Tenant is outranked by its own tenant, and the header says so;
 *  - an account admin naming another tenant acts there on tenant routes (the header names it),
 *    and for itself on tenant-free ones.
 */

const OTHER = 'effective-other';
const PASSWORD = 'effective tenant 0001';

interface Answer {
  status: number;
  tenant: string | null;
  body: any;
}

function probePath(path: string): string {
  return path.replace(/\{[A-Za-z0-9_]+\}/g, 'effective-probe');
}

async function get(base: string, path: string, token: string, extra: Record<string, string> = {}): Promise<Answer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5000);
  try {
    const response = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${token}`, ...extra },
      signal: abort.signal,
    });
    // An event stream never ends: its head is all this test reads.
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    const body = json ? await response.json().catch(() => undefined) : undefined;
    if (!json) await response.body?.cancel().catch(() => undefined);
    return { status: response.status, tenant: response.headers.get('x-tenant-id'), body };
  } finally {
    clearTimeout(timer);
  }
}

describe('Effective tenant: every read takes tenant_id, every response names its tenant', () => {
  let tk: TestKernel;
  let root: string;
  let tenantAdmin: string;
  let reads: Array<{ path: string; route: CompiledRoute }>;

  before(async function () {
    this.timeout(120_000);
    tk = await startKernel();
    root = await loginAdmin(tk);
    await createTenant(tk, root, OTHER);
    await createUser(tk, root, {
      username: 'effective-admin',
      password: PASSWORD,
      roles: ['admin'],
      tenantId: 'default',
    });
    tenantAdmin = (await login(tk, { tenant_id: 'default', username: 'effective-admin', password: PASSWORD }))
      .access_token;
    const doc = (await tk.request('GET', '/openapi.json', { token: root })).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    reads = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!ops.get) continue;
      const route = tk.kernel.catalog.routes.find((r) => r.decl.method === 'GET' && r.path === path);
      if (!route) throw new Error(`GET ${path} is documented but not in the catalog`);
      reads.push({ path, route });
    }
  });
  after(() => tk?.close());

  it('finds the reads of every plugin in the document', () => {
    expect(reads.length).to.be.greaterThan(40);
    for (const path of ['/component-types', '/agent/tools', '/auth/sessions', '/health', '/streams'])
      expect(reads.map((r) => r.path)).to.include(path);
  });

  it('accepts tenant_id=<own tenant> on every GET route and answers as without it', async function () {
    this.timeout(120_000);
    const failures: string[] = [];
    for (const { path, route } of reads) {
      if (route.decl.upgrade === 'websocket') continue; // 426 either way; its query carries the ticket.
      const plain = await get(tk.url, probePath(path), tenantAdmin);
      const named = await get(tk.url, `${probePath(path)}?tenant_id=default`, tenantAdmin);
      const pointers = JSON.stringify(named.body?.error?.details ?? []);
      // A route whose own query requires tenant_id (a public sign-in page's providers) answers
      // 400 without it; with it, it must not be refused for it.
      const requires = ((route.decl.query as { required?: string[] } | undefined)?.required ?? []).includes(
        'tenant_id',
      );
      if ((!requires && named.status !== plain.status) || pointers.includes('tenant_id'))
        failures.push(`GET ${path}: ${plain.status} without tenant_id, ${named.status} with it ${pointers}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('names the tenant on every authenticated response, errors included', async function () {
    this.timeout(120_000);
    const failures: string[] = [];
    for (const { path, route } of reads) {
      if (route.decl.upgrade === 'websocket' || route.decl.permission === PUBLIC) continue;
      const answer = await get(tk.url, probePath(path), tenantAdmin);
      if (answer.tenant !== 'default') failures.push(`GET ${path} → ${answer.status}, X-Tenant-Id ${answer.tenant}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('shows a caller that its own tenant outranked its X-Service-Tenant, on every route', async function () {
    this.timeout(120_000);
    const failures: string[] = [];
    for (const { path, route } of reads) {
      if (route.decl.upgrade === 'websocket' || route.decl.permission === PUBLIC) continue;
      const answer = await get(tk.url, probePath(path), tenantAdmin, { 'x-service-tenant': OTHER });
      if (answer.tenant !== 'default') failures.push(`GET ${path} → ${answer.status}, X-Tenant-Id ${answer.tenant}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('an account admin naming another tenant acts there on tenant routes, for itself elsewhere', async function () {
    this.timeout(120_000);
    const failures: string[] = [];
    for (const { path, route } of reads) {
      if (route.decl.upgrade === 'websocket' || route.decl.permission === PUBLIC) continue;
      const answer = await get(tk.url, `${probePath(path)}?tenant_id=${OTHER}`, root);
      const expected = route.tenancy === 'tenant' ? OTHER : 'default';
      if (answer.tenant !== expected)
        failures.push(`GET ${path} → ${answer.status}, X-Tenant-Id ${answer.tenant}, expected ${expected}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('holds tenant-free reads to the tenancy rule: another tenant is 404, * needs the account permission', async () => {
    for (const path of ['/component-types', '/auth/sessions', '/agent/tools']) {
      const other = await get(tk.url, `${path}?tenant_id=${OTHER}`, tenantAdmin);
      expect(other.status, path).to.equal(404);
      expect(other.body.error.code).to.equal('not_found');
      const all = await get(tk.url, `${path}?tenant_id=*`, tenantAdmin);
      expect(all.status, path).to.equal(403);
      const own = await get(tk.url, `${path}?tenant_id=default`, tenantAdmin);
      expect(own.status, path).to.equal(200);
    }
  });

  it('names the tenant of a write, and of a refused one', async () => {
    const created = await tk.request('POST', '/streams', {
      token: root,
      body: { tenant_id: OTHER, name: 'effective stream' },
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.get('x-tenant-id')).to.equal(OTHER);
    const refused = await tk.request('POST', '/streams', { token: tenantAdmin, body: { name: 'x', partitions: 0 } });
    expect(refused.status).to.equal(400);
    expect(refused.headers.get('x-tenant-id')).to.equal('default');
  });
});
