import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { loginAdmin } from '../../support/identity.js';
import { startKernel, TEST_PROFILE_PLUGINS, type TestKernel } from '../../support/kernel.js';
import { fromRoot } from '../../../kernel/paths.js';
import { ensureConsoleBuilt } from './support/build.js';

const INDEX = `<!doctype html><html><head><meta charset="utf-8"><title>Console</title>
<script type="module" src="/console/assets/index-4f2a9c.js"></script>
<link rel="stylesheet" href="/console/assets/index-77b1e0.css"></head><body><div id="root"></div></body></html>
`;
// Large enough to be compressed (the plugin leaves bodies under 1 KiB alone).
const SCRIPT = `export const routes = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `/route/${i}`))};\n`;
const STYLE = 'body { margin: 0 }\n';
// A script the build precompressed: its copies say so, which tells them apart from the
// service compressing the file itself.
const BUILT = `export const made = 'by the bundler';\n${SCRIPT}`;
const BUILT_COPY = `export const made = 'by the build step';\n${SCRIPT}`;
const SECRET_OUTSIDE = 'package-json-outside-the-build';
const SECRET_DOTFILE = 'dotfile-inside-the-build';

/** A build folder as Vite writes it, inside a folder holding a file that must never be served. */
function fakeBuild(): { root: string; dist: string } {
  const root = mkdtempSync(join(tmpdir(), 'console-build-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ secret: SECRET_OUTSIDE }));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-4f2a9c.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'index-77b1e0.css'), STYLE);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, '.env'), SECRET_DOTFILE);
  writeFileSync(join(dist, 'assets', 'built-5d1e0a.js'), BUILT);
  writeFileSync(join(dist, 'assets', 'built-5d1e0a.js.br'), brotliCompressSync(BUILT_COPY));
  writeFileSync(join(dist, 'assets', 'built-5d1e0a.js.gz'), gzipSync(BUILT_COPY));
  // Copies left from an earlier build: older than the file they sit beside.
  writeFileSync(join(dist, 'assets', 'rebuilt-3b7c21.js'), BUILT);
  for (const [suffix, body] of [
    ['br', brotliCompressSync(BUILT_COPY)],
    ['gz', gzipSync(BUILT_COPY)],
  ] as const) {
    const copy = join(dist, 'assets', `rebuilt-3b7c21.js.${suffix}`);
    writeFileSync(copy, body);
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(copy, earlier, earlier);
  }
  return { root, dist };
}

/** A GET with the path sent byte for byte (fetch would resolve `..` before sending). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GET of a console file with the Accept-Encoding given, its body as sent (not decoded). */
function encodedGet(
  base: string,
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, headers: { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function expectSecurityHeaders(headers: Headers, base: string): void {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
  expect(directives.get('default-src')).to.deep.equal(["'self'"]);
  expect(directives.get('script-src')).to.deep.equal(["'self'"]);
  expect(directives.get('frame-ancestors')).to.deep.equal(["'none'"]);
  expect(directives.get('object-src')).to.deep.equal(["'none'"]);
  const host = new URL(base).host;
  expect(directives.get('connect-src')).to.include.members(["'self'", `ws://${host}`]);
  // Nothing from another origin, and no inline or evaluated script anywhere in the policy.
  for (const [, values] of directives) {
    for (const value of values) {
      expect(value).to.not.match(/unsafe-eval|^https?:|^\*$/);
      if (value.startsWith('ws')) expect(value).to.match(new RegExp(`^wss?://${host.replace(/\./g, '\\.')}$`));
    }
  }
  expect(directives.get('script-src')).to.not.include("'unsafe-inline'");
  expect(headers.get('x-content-type-options')).to.equal('nosniff');
  expect(headers.get('referrer-policy')).to.equal('same-origin');
}

describe('console plugin: serving the app', () => {
  let tk: TestKernel;
  let build: { root: string; dist: string };

  before(async function () {
    this.timeout(120_000);
    build = fakeBuild();
    tk = await startKernel({ settings: { console: { dist_dir: build.dist } } });
  });
  after(async () => {
    await tk?.close();
    rmSync(build.root, { recursive: true, force: true });
  });

  it('serves index.html at /console/ and /console, revalidated on each use, with the security headers', async () => {
    for (const path of ['/console/', '/console']) {
      const res = await fetch(`${tk.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(await res.text()).to.equal(INDEX);
      expectSecurityHeaders(res.headers, tk.url);
    }
  });

  it('answers an app route (no file extension) with index.html, query string and depth included', async () => {
    for (const path of ['/console/streams', '/console/streams/orders/messages/3?partition=0', '/console/a/b/c/']) {
      const res = await fetch(`${tk.url}${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(await res.text()).to.equal(INDEX);
    }
  });

  it('answers 304 to a revalidation whose ETag still matches', async () => {
    const first = await fetch(`${tk.url}/console/`);
    const etag = first.headers.get('etag');
    expect(etag).to.be.a('string');
    const again = await fetch(`${tk.url}/console/`, { headers: { 'if-none-match': etag as string } });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
  });

  it('serves hashed assets immutable, with their content type', async () => {
    const js = await fetch(`${tk.url}/console/assets/index-4f2a9c.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(js.status).to.equal(200);
    expect(js.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).to.equal(null);
    expect(await js.text()).to.equal(SCRIPT);
    expectSecurityHeaders(js.headers, tk.url);
    const css = await fetch(`${tk.url}/console/assets/index-77b1e0.css`);
    expect(css.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    expect(await css.text()).to.equal(STYLE);
    const svg = await fetch(`${tk.url}/console/favicon.svg`);
    expect(svg.headers.get('content-type')).to.equal('image/svg+xml');
    // Outside assets/ a file keeps its name across builds: revalidated, not immutable.
    expect(svg.headers.get('cache-control')).to.equal('no-cache');
  });

  it('compresses with brotli or gzip as the browser accepts, and says so', async () => {
    // node's fetch decompresses on its own; a raw request shows the bytes sent.
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const url = new URL(tk.url);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: '/console/assets/index-4f2a9c.js',
            headers: { 'accept-encoding': encoding },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.match(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString('utf8')).to.equal(SCRIPT);
    expect(br.body.length).to.be.lessThan(Buffer.byteLength(SCRIPT));
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).to.equal(SCRIPT);
    const refused = await raw('br;q=0, gzip;q=0');
    expect(refused.headers['content-encoding']).to.equal(undefined);
    expect(refused.body.toString('utf8')).to.equal(SCRIPT);
  });

  it("sends the build's brotli and gzip copies as they are, with Content-Encoding and Vary", async () => {
    const path = '/console/assets/built-5d1e0a.js';
    const br = await encodedGet(tk.url, path, 'gzip, deflate, br');
    expect(br.status).to.equal(200);
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.match(/accept-encoding/i);
    expect(br.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.body).toString('utf8')).to.equal(BUILT_COPY);
    const gz = await encodedGet(tk.url, path, 'gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers.vary).to.match(/accept-encoding/i);
    expect(gunzipSync(gz.body).toString('utf8')).to.equal(BUILT_COPY);
    // A client that accepts neither gets the file itself, still marked as varying.
    const plain = await encodedGet(tk.url, path, 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers.vary).to.match(/accept-encoding/i);
    expect(plain.body.toString('utf8')).to.equal(BUILT);
  });

  it('ignores copies older than their file (left from an earlier build) and compresses the file itself', async () => {
    const path = '/console/assets/rebuilt-3b7c21.js';
    const br = await encodedGet(tk.url, path, 'br');
    expect(br.headers['content-encoding']).to.equal('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).to.equal(BUILT);
    const gz = await encodedGet(tk.url, path, 'gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).to.equal(BUILT);
  });

  it('answers 404 for a missing asset (never index.html)', async () => {
    const res = await fetch(`${tk.url}/console/assets/gone-123.js`);
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('not_found');
  });

  it('refuses every way out of the build folder, and its dotfiles, with 404', async () => {
    const attempts = [
      '/console/assets/../../package.json',
      '/console/../package.json',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/assets/%2e%2e/%2e%2e/package.json',
      '/console/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/console/..%5c..%5cpackage.json',
      '/console/assets/..%252F..%252Fpackage.json',
      '/console/.env',
      '/console/assets/./index-4f2a9c.js',
      '/console//etc/passwd',
      '/console/..',
    ];
    for (const path of attempts) {
      const res = await rawGet(tk.url, path);
      expect(res.body, path).to.not.include(SECRET_OUTSIDE);
      expect(res.body, path).to.not.include(SECRET_DOTFILE);
      // `/console/../package.json` is `/package.json` to the router (no such route): 404 too.
      expect(res.status, `${path}: ${res.body.slice(0, 120)}`).to.equal(404);
    }
    // A NUL never reaches the plugin: the kernel's input guard refuses it first.
    const nul = await rawGet(tk.url, '/console/assets/%00.js');
    expect(nul.status).to.equal(400);
  });

  it('sends a browser opening / to the console, and keeps the 404 for any other client', async () => {
    const browser = await fetch(`${tk.url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
      redirect: 'manual',
    });
    expect(browser.status).to.equal(302);
    expect(browser.headers.get('location')).to.equal('/console/');
    const script = await fetch(`${tk.url}/`, { headers: { accept: 'application/json' } });
    expect(script.status).to.equal(404);
    expect(((await script.json()) as { error: { code: string } }).error.code).to.equal('not_found');
    const bare = await fetch(`${tk.url}/`);
    expect(bare.status).to.equal(404);
  });

  it('lists its routes in the OpenAPI document, the rest-of-path parameter as one path parameter', async () => {
    const admin = await loginAdmin(tk);
    const doc = (await tk.request('GET', '/openapi.json', { token: admin })).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    expect(doc.paths).to.include.keys(['/', '/console', '/console/{path}']);
    expect(doc.paths['/console/{path}']?.get?.parameters?.find((p) => p.in === 'path')?.name).to.equal('path');
  });
});

describe('console plugin: not built, and disabled', () => {
  it('says the console is not built and how to build it: a page for a browser, JSON for others', async function () {
    this.timeout(120_000);
    const empty = mkdtempSync(join(tmpdir(), 'console-empty-'));
    const tk = await startKernel({ settings: { console: { dist_dir: empty } } });
    try {
      const page = await fetch(`${tk.url}/console/`, { headers: { accept: 'text/html' } });
      expect(page.status).to.equal(501);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).to.include('npm run console:build');
      expect(html).to.not.match(/<script/i);
      expectSecurityHeaders(page.headers, tk.url);
      const json = await tk.request('GET', '/console/streams');
      expect(json.status).to.equal(501);
      expect(json.body.error.code).to.equal('not_configured');
      expect(json.body.error.message).to.include('npm run console:build');
      const asset = await tk.request('GET', '/console/assets/index-1.js');
      expect(asset.status).to.equal(501);
    } finally {
      await tk.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('disabled, serves nothing: /console/ is 404, / is 404 for a browser too, and the routes leave the catalog', async function () {
    this.timeout(120_000);
    const build = fakeBuild();
    const tk = await startKernel({
      plugins: TEST_PROFILE_PLUGINS.filter((id) => id !== 'console'),
      settings: { console: { dist_dir: build.dist } },
    });
    try {
      for (const path of ['/console/', '/console', '/console/streams', '/console/assets/index-4f2a9c.js']) {
        const res = await fetch(`${tk.url}${path}`, { headers: { accept: 'text/html' } });
        expect(res.status, path).to.equal(404);
        expect(res.headers.get('content-security-policy')).to.equal(null);
      }
      const root = await fetch(`${tk.url}/`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect(root.status).to.equal(404);
      const admin = await loginAdmin(tk);
      const doc = (await tk.request('GET', '/openapi.json', { token: admin })).body as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/console'))).to.deep.equal([]);
      // Sign-in in a browser belongs to identity and stays.
      expect(doc.paths).to.include.keys(['/auth/browser/login', '/auth/me']);
    } finally {
      await tk.close();
      rmSync(build.root, { recursive: true, force: true });
    }
  });
});

describe('console build: precompressed copies', () => {
  it('writes a brotli and a gzip copy of every script, style sheet and page of 1 KiB or more, each the same bytes', function () {
    this.timeout(180_000);
    ensureConsoleBuilt();
    const dist = fromRoot('plugins', 'console', 'app', 'dist');
    const texts = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .map((name) => join(dist, name))
      .filter((file) => ['.js', '.css', '.html'].includes(extname(file)) && statSync(file).size >= 1024);
    expect(texts.map((f) => extname(f))).to.include.members(['.js', '.css', '.html']);
    for (const file of texts) {
      const body = readFileSync(file);
      expect(existsSync(`${file}.br`), `${file}.br`).to.equal(true);
      expect(existsSync(`${file}.gz`), `${file}.gz`).to.equal(true);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(body), `${file}.br`).to.equal(true);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(body), `${file}.gz`).to.equal(true);
    }
  });
});
