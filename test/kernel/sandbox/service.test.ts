import { expect } from 'chai';
import { coreServices, createPlugin, type Sandbox } from '../../../kernel/plugin/api.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/** A plugin that asks for the sandbox the way studio, workflows and BPMN do, and hands it to the test. */
function probe(): { plugin: ReturnType<typeof createPlugin>; sandbox(): Sandbox } {
  let received: Sandbox | undefined;
  const plugin = createPlugin({
    id: 'sandbox-probe',
    manifest: { id: 'sandbox-probe', version: '1.0.0', summary: 'receives the sandbox', routes: [] },
    deps: { sandbox: coreServices.sandbox },
    setup: ({ sandbox }) => {
      received = sandbox;
      return { handlers: {} };
    },
  });
  return { plugin, sandbox: () => received as Sandbox };
}

const DEADLINE = 600;
const SPIN = 2000;

describe('kernel: the sandbox service', function () {
  this.timeout(120_000);
  let k: TestKernel;
  const p = probe();
  before(async () => {
    k = await startKernel(
      {
        plugins: ['system'],
        auth: { mode: 'none' },
        sandbox: { deadline_ms: DEADLINE, backstop_margin_ms: 400, pool_size: 1 },
      },
      { plugins: [p.plugin] },
    );
  });
  after(() => k?.close());

  it("gives a plugin that declares it the kernel's sandbox, configured from sandbox.* in config", async () => {
    expect(p.sandbox()).to.equal(k.kernel.services.sandbox);
    const r = await p.sandbox().run({
      tenantId: 'default',
      files: { 'main.js': 'result = input.key + ":" + service.json.decode(input.body).n;' },
      input: { body: '{"n":1}', headers: {}, key: 'k' },
    });
    expect(r).to.deep.include({ ok: true, result: 'k:1' });
  });

  it('keeps answering GET /health while a script spins until its deadline', async () => {
    // A longer deadline than the configured one (a job may set its own), so the check has time to sample on a loaded machine.
    const spinning = p.sandbox().run({
      tenantId: 'default',
      files: { 'main.js': 'while (true) {}' },
      input: { body: null, headers: {}, key: null },
      limits: { deadline_ms: SPIN },
    });
    let settled = false;
    void spinning.then(() => {
      settled = true;
    });
    const latencies: number[] = [];
    while (!settled) {
      const started = performance.now();
      const health = await k.request('GET', '/health');
      latencies.push(performance.now() - started);
      expect(health.status).to.equal(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const r = await spinning;
    expect(r.ok).to.equal(false);
    expect(r.error).to.deep.include({ limit: 'deadline', message: `the script ran past its deadline of ${SPIN} ms` });
    expect(latencies.length, 'health checks answered during the run').to.be.at.least(3);
    // Not blocked until the script ended: every check answered well within the spin.
    expect(Math.max(...latencies), 'slowest health check').to.be.below(SPIN * 0.75);
  });

  it("fills in RUNTIME.md's defaults when config says nothing", async () => {
    const plain = await startKernel({ plugins: ['system'], auth: { mode: 'none' } });
    try {
      expect(plain.kernel.config.sandbox).to.deep.equal({
        deadline_ms: 1000,
        backstop_margin_ms: 500,
        memory_bytes: 33554432,
        stack_bytes: 1048576,
        output_bytes: 1048576,
        pushes: 1000,
        pool_size: 2,
      });
    } finally {
      await plain.close();
    }
  });

  it('refuses sandbox settings out of range at boot', async () => {
    let failure: unknown;
    await startKernel({ plugins: ['system'], auth: { mode: 'none' }, sandbox: { deadline_ms: 0 } }).then(
      (kk) => kk.close(),
      (err: unknown) => {
        failure = err;
      },
    );
    expect(String(failure)).to.match(/sandbox/);
  });

  it('closes the sandbox with the kernel', async () => {
    const own = probe();
    const other = await startKernel({ plugins: ['system'], auth: { mode: 'none' } }, { plugins: [own.plugin] });
    expect(
      (
        await own.sandbox().run({
          tenantId: 'default',
          files: { 'main.js': 'result = 1' },
          input: { body: null, headers: {}, key: null },
        })
      ).ok,
    ).to.equal(true);
    await other.close();
    let refused: unknown;
    await own
      .sandbox()
      .run({ tenantId: 'default', files: { 'main.js': 'result = 1' }, input: { body: null, headers: {}, key: null } })
      .catch((err: unknown) => {
        refused = err;
      });
    expect(String(refused)).to.match(/closed/);
  });
});
