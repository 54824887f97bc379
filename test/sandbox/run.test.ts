import { expect } from 'chai';
import type { Sandbox } from '../../sandbox/types.js';
import { job, newSandbox } from './helpers.js';

describe('sandbox: a run', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  before(() => {
    sandbox = newSandbox();
  });
  after(() => sandbox.close());

  it('sees input, decodes it, pushes, logs and assigns result', async () => {
    const r = await sandbox.run(
      job(
        'const v = service.json.decode(input.body);\nconsole.log("got", v, 7, null, undefined);\nservice.route.push({ doubled: v.a * 2 });\nservice.route.push("second");\nresult = { key: input.key, header: input.headers["x-kind"], sum: v.a + 1 };',
        { input: { body: '{"a":20}', headers: { 'x-kind': 'order' }, key: 'k-1' } },
      ),
    );
    expect(r.error).to.equal(undefined);
    expect(r.ok).to.equal(true);
    expect(r.result).to.deep.equal({ key: 'k-1', header: 'order', sum: 21 });
    expect(r.pushed).to.deep.equal([{ doubled: 40 }, 'second']);
    expect(r.logs).to.deep.equal(['got {"a":20} 7 null undefined']);
    expect(r.duration_ms).to.be.a('number').and.be.at.least(0);
  });

  it('gives a binary body as a Uint8Array, which service.json.decode reads as UTF-8', async () => {
    const body = new TextEncoder().encode('{"name":"Zoë"}');
    const r = await sandbox.run(
      job(
        'result = { isBytes: input.body instanceof Uint8Array, length: input.body.length, name: service.json.decode(input.body).name, sub: service.json.decode(input.body.subarray(8, 14)) };',
        { input: { body, headers: {}, key: null } },
      ),
    );
    expect(r.result).to.deep.equal({ isBytes: true, length: body.length, name: 'Zoë', sub: 'Zoë' });
  });

  it('answers ok:false with a clear message when service.json.decode meets bad JSON', async () => {
    const r = await sandbox.run(
      job('\nresult = service.json.decode(input.body);', { input: { body: '{nope', headers: {}, key: null } }),
    );
    expect(r.ok).to.equal(false);
    expect(r.error?.message).to.match(/^SyntaxError: service\.json\.decode: invalid JSON/);
    expect(r.error?.line).to.equal(2);
  });

  it('leaves result undefined when the script does not assign it', async () => {
    const r = await sandbox.run(job('const x = 1;'));
    expect(r.ok).to.equal(true);
    expect(r).to.not.have.property('result');
  });

  it('waits for a result that is a promise, and for top-level await', async () => {
    const r = await sandbox.run(job('const v = await Promise.resolve(20);\nresult = (async () => v + 22)();'));
    expect(r.ok).to.equal(true);
    expect(r.result).to.equal(42);
  });

  it('imports workspace modules by relative path, in folders and up again, and JSON files', async () => {
    const r = await sandbox.run(
      job({
        'main.js':
          'import { double } from "./lib/math.js";\nimport { label } from "./lib/deep/label.js";\nimport config from "./config.json";\nresult = label(double(config.n));',
        'lib/math.js': 'export const double = (n) => n * 2;',
        'lib/deep/label.js': 'import { prefix } from "../../prefix.js";\nexport const label = (v) => prefix + v;',
        'prefix.js': 'export const prefix = "n=";',
        'config.json': '{"n": 21}',
      }),
    );
    expect(r.error).to.equal(undefined);
    expect(r.result).to.equal('n=42');
  });

  it('runs another entry than main.js when asked', async () => {
    const r = await sandbox.run(
      job(
        {
          'main.js': 'result = 1',
          'jobs/other.js': 'import { v } from "./v.js"; result = v',
          'jobs/v.js': 'export const v = 2',
        },
        { entry: 'jobs/other.js' },
      ),
    );
    expect(r.result).to.equal(2);
  });

  it('refuses imports that are not workspace files by relative path', async () => {
    for (const spec of ['fs', 'node:fs', '/etc/passwd', '../outside.js', './missing.js', 'https://example.com/x.js']) {
      const r = await sandbox.run(job({ 'main.js': `import x from ${JSON.stringify(spec)};\nresult = x;` }));
      expect(r.ok, spec).to.equal(false);
      expect(r.error?.message, spec).to.match(/cannot import|no file/);
    }
  });

  it('reports a missing entry as ok:false', async () => {
    const r = await sandbox.run(job({ 'lib.js': '' }));
    expect(r.ok).to.equal(false);
    expect(r.error?.message).to.equal('no file main.js in the workspace');
  });

  it('reports the line of a thrown error, and the file when it came from an imported module', async () => {
    const thrown = await sandbox.run(job('const a = 1;\n\nthrow new Error("boom");'));
    expect(thrown).to.deep.include({ ok: false });
    expect(thrown.error).to.deep.equal({ message: 'boom', line: 3, file: 'main.js' });

    const typeError = await sandbox.run(job('\nconst o = null;\nresult = o.x;'));
    expect(typeError.error?.message).to.match(/^TypeError: /);
    expect(typeError.error?.line).to.equal(3);

    const syntax = await sandbox.run(job('const a = 1;\nconst = ;'));
    expect(syntax.error?.message).to.match(/^SyntaxError: /);
    expect(syntax.error?.line).to.equal(2);

    const imported = await sandbox.run(
      job({
        'main.js': 'import { f } from "./lib.js";\nf();',
        'lib.js': 'export function f() {\n  // nothing\n  throw new RangeError("from lib");\n}',
      }),
    );
    expect(imported.error).to.deep.equal({ message: 'RangeError: from lib', line: 3, file: 'lib.js' });

    const syntaxInLib = await sandbox.run(job({ 'main.js': 'import "./lib.js";', 'lib.js': '\n\nlet let = 1;' }));
    expect(syntaxInLib.error?.file).to.equal('lib.js');
    expect(syntaxInLib.error?.line).to.equal(3);
  });

  it('reports a thrown non-error value', async () => {
    const r = await sandbox.run(job('throw 42;'));
    expect(r.ok).to.equal(false);
    expect(r.error?.message).to.equal('the script threw 42');
  });

  it('evaluates an expression after the entry, which becomes the result', async () => {
    const r = await sandbox.run(job('globalThis.total = 40;\nresult = "from entry";', { expression: 'total + 2' }));
    expect(r.result).to.equal(42);
    const failing = await sandbox.run(job('result = 1', { expression: 'nope()' }));
    expect(failing.ok).to.equal(false);
    expect(failing.error?.file).to.equal('<expression>');
  });

  it('adds extra JSON globals, and refuses ones that would shadow the contract', async () => {
    const r = await sandbox.run(job('result = variables.count + 1;', { globals: { variables: { count: 41 } } }));
    expect(r.result).to.equal(42);
    for (const name of ['input', 'service', 'console', 'result', 'not-an-identifier']) {
      const refused = await sandbox.run(job('result = 1', { globals: { [name]: 1 } }));
      expect(refused.ok, name).to.equal(false);
      expect(refused.error?.message, name).to.match(/cannot be a global/);
    }
  });

  it('answers ok:false for a job that cannot be copied to a worker (a function among the globals)', async () => {
    const r = await sandbox.run(job('result = 1;', { globals: { fn: (() => 1) as unknown } }));
    expect(r.ok).to.equal(false);
    expect(r.error?.message).to.match(/cannot be sent to the sandbox/);
    expect(await sandbox.run(job('result = 2;'))).to.deep.include({ ok: true, result: 2 });
  });

  it('applies per-job limits', async () => {
    const r = await sandbox.run(job('for (let i = 0; i < 3; i++) service.route.push(i);', { limits: { pushes: 2 } }));
    expect(r.ok).to.equal(false);
    expect(r.error?.limit).to.equal('pushes');
    expect(r.pushed).to.deep.equal([0, 1]);
  });
});

describe('sandbox: pool limits', function () {
  this.timeout(120_000);

  it('may be raised above the defaults; a job cannot raise memory past the pool, and a lower job limit stops large allocations', async () => {
    const roomy = newSandbox({
      poolSize: 1,
      limits: { memory_bytes: 96 * 1024 * 1024, output_bytes: 4 * 1024 * 1024 },
    });
    const tight = newSandbox({ poolSize: 1 });
    try {
      // About 48 MiB of live strings: past the default 32 MiB, within 96 MiB.
      const script =
        'const held = [];\nfor (let i = 0; i < 48; i++) held.push("x".repeat(1024 * 1024 - 64) + i);\nresult = held.length;';
      expect(await roomy.run(job(script, { limits: { deadline_ms: 20_000 } }))).to.deep.include({
        ok: true,
        result: 48,
      });
      const refused = await tight.run(job(script, { limits: { deadline_ms: 20_000, memory_bytes: 96 * 1024 * 1024 } }));
      expect(refused.ok).to.equal(false);
      expect(refused.error?.limit).to.equal('memory');
      const lowered = await roomy.run(
        job('result = "x".repeat(16 * 1024 * 1024).length;', { limits: { memory_bytes: 8 * 1024 * 1024 } }),
      );
      expect(lowered.error?.limit).to.equal('memory');
      const logs = await roomy.run(job('console.log("z".repeat(2 * 1024 * 1024));'));
      expect(logs.ok).to.equal(true);
    } finally {
      await roomy.close();
      await tight.close();
    }
  });
});
