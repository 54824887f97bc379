import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKernel, type TestKernel } from '../../support/kernel.js';

function promtool(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

describe('operational routes', () => {
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components'], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  describe('GET /health', () => {
    it('reports status, version, build commit and uptime without a credential', async () => {
      const res = await tk.request('GET', '/health');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'ok', version: '0.1.0', profile: 'test' });
      expect(res.body.commit).to.be.a('string').and.not.equal('');
      expect(res.body.uptime_seconds).to.be.a('number').and.be.greaterThan(0);
      expect(new Date(res.body.started_at).toISOString()).to.equal(res.body.started_at);
    });
  });

  describe('GET /live', () => {
    it('answers 200 while the process runs', async () => {
      const res = await tk.request('GET', '/live');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'alive' });
    });
  });

  describe('GET /ready', () => {
    it('answers 200 when the database answers and every plugin has started', async () => {
      const res = await tk.request('GET', '/ready');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ready', checks: { database: true, plugins: true, accepting: true } });
    });
  });

  describe('GET /metrics', () => {
    it('counts requests by route template and status', async () => {
      await tk.request('GET', '/components/no-such-id');
      const res = await tk.request('GET', '/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(res.text).to.match(/http_requests_total\{method="GET",route="\/components\/\{id\}",status="404"\} 1/);
      expect(res.text).to.include('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health"');
      expect(res.text).to.include('process_cpu_seconds_total');
    });

    it('passes promtool check metrics', async function () {
      const tool = promtool();
      if (!tool) {
        console.log("      (skipped: promtool is not installed; .ci/run installs Debian's prometheus package)");
        this.skip();
      }
      await tk.request('GET', '/health');
      const res = await tk.request('GET', '/metrics');
      const file = join(mkdtempSync(join(tmpdir(), 'metrics-')), 'metrics.txt');
      writeFileSync(file, res.text);
      const check = spawnSync('sh', ['-c', `${tool} check metrics < ${file}`], { encoding: 'utf8' });
      expect(check.stderr + check.stdout).to.equal('');
      expect(check.status).to.equal(0);
    });
  });
});
