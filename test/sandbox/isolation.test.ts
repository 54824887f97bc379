import { expect } from 'chai';
import type { Sandbox } from '../../sandbox/types.js';
import { job, newSandbox } from './helpers.js';

/** A script that leaves every kind of leftover a later run might find. */
const LITTER = [
  'globalThis.leftover = "from A";',
  'Object.prototype.polluted = "from A";',
  'Array.prototype.push = function () { return "hijacked"; };',
  'JSON.parse = () => ({ forged: true });',
  'Math.random = () => 4;',
  'globalThis.input.body = "changed by A";',
  'result = "littered";',
].join('\n');

/** What a later run looks for. */
const PROBE = [
  'const seen = [];',
  'if (typeof leftover !== "undefined") seen.push("global");',
  'if (({}).polluted !== undefined) seen.push("Object.prototype");',
  'const a = []; a.push(1); if (a.length !== 1) seen.push("Array.prototype");',
  'if (JSON.parse("{}").forged) seen.push("JSON.parse");',
  'if (Math.random() === 4) seen.push("Math.random");',
  'if (input.body !== "mine") seen.push("input");',
  'result = seen;',
].join('\n');

describe('sandbox: no state crosses between runs or tenants', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  before(() => {
    sandbox = newSandbox({ poolSize: 2 });
  });
  after(() => sandbox.close());

  const input = { body: 'mine', headers: {}, key: null };

  it("tenant B never sees what tenant A left behind, and neither does A's next run, on any worker", async () => {
    // Enough rounds, some concurrent, that both workers serve both tenants.
    for (let round = 0; round < 6; round++) {
      const [littered, probedB, probedA] = await Promise.all([
        sandbox.run(job(LITTER, { tenantId: 'tenant-a', input })),
        sandbox.run(job(PROBE, { tenantId: 'tenant-b', input })),
        sandbox.run(job(PROBE, { tenantId: 'tenant-a', input })),
      ]);
      expect(littered.result).to.equal('littered');
      expect(probedB.result, `round ${round}, tenant B`).to.deep.equal([]);
      expect(probedA.result, `round ${round}, tenant A`).to.deep.equal([]);
      const after = await sandbox.run(job(PROBE, { tenantId: 'tenant-b', input }));
      expect(after.result, `round ${round}, after`).to.deep.equal([]);
    }
  });

  it('module state (a counter in an imported module) starts fresh on every run', async () => {
    const files = {
      'main.js': 'import { next } from "./counter.js";\nresult = next();',
      'counter.js': 'let n = 0;\nexport function next() { n += 1; return n; }',
    };
    const results = await Promise.all(Array.from({ length: 6 }, () => sandbox.run(job(files))));
    expect(results.map((r) => r.result)).to.deep.equal([1, 1, 1, 1, 1, 1]);
  });

  it("a run sees only the files it was given: tenant A's files are not importable in B's run", async () => {
    const a = await sandbox.run(
      job(
        {
          'main.js': 'import { secret } from "./secret.js";\nresult = secret;',
          'secret.js': 'export const secret = "A only";',
        },
        { tenantId: 'tenant-a' },
      ),
    );
    expect(a.result).to.equal('A only');
    const b = await sandbox.run(
      job({ 'main.js': 'import { secret } from "./secret.js";\nresult = secret;' }, { tenantId: 'tenant-b' }),
    );
    expect(b.ok).to.equal(false);
    expect(b.error?.message).to.match(/no file secret\.js/);
  });

  it('concurrent runs keep their own pushes and logs', async () => {
    const runs = await Promise.all(
      ['a', 'b', 'c', 'd'].map((tag) =>
        sandbox.run(
          job(
            `for (let i = 0; i < 50; i++) { service.route.push("${tag}" + i); console.log("${tag}", i); }\nresult = "${tag}";`,
            { tenantId: `tenant-${tag}` },
          ),
        ),
      ),
    );
    for (const [index, tag] of ['a', 'b', 'c', 'd'].entries()) {
      const r = runs[index]!;
      expect(r.result).to.equal(tag);
      expect(r.pushed).to.deep.equal(Array.from({ length: 50 }, (_, i) => `${tag}${i}`));
      expect(r.logs).to.deep.equal(Array.from({ length: 50 }, (_, i) => `${tag} ${i}`));
    }
  });

  it('a run stopped at its deadline leaves nothing for the next one', async () => {
    const killed = await sandbox.run(
      job('globalThis.leftover = "x";\nObject.prototype.polluted = 1;\nwhile (true) {}', {
        tenantId: 'tenant-a',
        limits: { deadline_ms: 200 },
      }),
    );
    expect(killed.error?.limit).to.equal('deadline');
    const next = await Promise.all([
      sandbox.run(job(PROBE, { tenantId: 'tenant-b', input })),
      sandbox.run(job(PROBE, { tenantId: 'tenant-b', input })),
    ]);
    expect(next.map((r) => r.result)).to.deep.equal([[], []]);
  });
});
