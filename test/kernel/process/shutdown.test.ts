import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../../../kernel/paths.js';
import type { PluginDefinition } from '../../../kernel/types.js';
import { request, startKernel } from '../../support/kernel.js';

const slowPlugin: PluginDefinition = {
  id: 'slow',
  manifest: {
    id: 'slow',
    version: '1.0.0',
    summary: 'A slow route',
    routes: [
      {
        operation: 'slowRead',
        method: 'GET',
        path: '/slow',
        permission: 'public',
        category: 'test',
        read_only: true,
        summary: 'Answers after 600 ms',
        response: { status: 200 },
      },
    ],
  },
  setup: () => ({
    handlers: {
      slowRead: async () =>
        new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: { done: true } }), 600)),
    },
  }),
};

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new connections and closes the database', async () => {
    const tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' } }, { plugins: [slowPlugin] });
    const inflight = tk.request('GET', '/slow');
    await new Promise((r) => setTimeout(r, 100));
    const closed = tk.kernel.close();
    const res = await inflight;
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ done: true });
    await closed;
    let refused = false;
    await request(tk.url, 'GET', '/health').catch(() => {
      refused = true;
    });
    expect(refused).to.equal(true);
    let dbClosed = false;
    await tk.kernel.database.knex.raw('select 1').catch(() => {
      dbClosed = true;
    });
    expect(dbClosed).to.equal(true);
  });
});

describe('npm start (kernel/start.mjs)', function () {
  this.timeout(60000);

  it('serves /health and /ready on the embedded database and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'runtime-data-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      RUNTIME_DATA_DIR: dataDir,
      RUNTIME_LOG_LEVEL: 'info',
      RUNTIME_ADMIN_PASSWORD: 'start-test-password-1',
    };
    delete env.DATABASE_URL;
    delete env.RUNTIME_PROFILE;
    const child = spawn(process.execPath, [fromRoot('kernel', 'start.mjs')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "serving" line in 45 s:\n${output}`)), 45000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(url, 'GET', '/health')).status).to.equal(200);
    expect((await request(url, 'GET', '/ready')).status).to.equal(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(output).to.include('"msg":"draining"');
  });
});
