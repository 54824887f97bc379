import { expect } from 'chai';
import { DEFAULT_LIMITS } from '../../sandbox/index.js';
import type { Sandbox, SandboxResult } from '../../sandbox/types.js';
import { job, newSandbox, timed, whileTicking } from './helpers.js';

const DEADLINE = DEFAULT_LIMITS.deadline_ms;
const BACKSTOP_MARGIN = 500;
/** The machine is slow and shared: a run that hit a limit must answer within this of its start. */
const ANSWER_WITHIN = DEADLINE + BACKSTOP_MARGIN + 2500;
/** The deadline of the runs that write too much output: long enough that the output limit stops them first. */
const OUTPUT_DEADLINE = 5000;

/** Every escape: fails inside the sandbox with a clear error, and nothing of the host is reachable. */
const ESCAPES: Array<[string, string, RegExp]> = [
  [
    'require',
    'const fs = require("fs");\nresult = fs.readFileSync("/etc/passwd", "utf8");',
    /ReferenceError: 'require' is not defined/,
  ],
  ['process', 'process.exit(1);', /ReferenceError: 'process' is not defined/],
  [
    'the Function constructor',
    "result = globalThis.constructor.constructor('return process')().env;",
    /ReferenceError: 'process' is not defined/,
  ],
  [
    "a function's constructor",
    "result = service.route.push.constructor('return process')();",
    /ReferenceError: 'process' is not defined/,
  ],
  [
    'import("fs")',
    "const fs = await import('fs');\nresult = fs.readFileSync('/etc/passwd', 'utf8');",
    /cannot import "fs"/,
  ],
  [
    'import "node:child_process"',
    "import { execSync } from 'node:child_process';\nresult = execSync('id');",
    /cannot import "node:child_process"/,
  ],
  ['fetch', "result = await fetch('http://127.0.0.1:5432/');", /ReferenceError: 'fetch' is not defined/],
  ['setTimeout', 'setTimeout(() => { result = 1; }, 0);', /ReferenceError: 'setTimeout' is not defined/],
  ['setInterval', 'setInterval(() => {}, 1);', /ReferenceError: 'setInterval' is not defined/],
  ['WebAssembly', 'result = new WebAssembly.Memory({ initial: 1 });', /ReferenceError: 'WebAssembly' is not defined/],
  ['Buffer', "result = Buffer.from('x');", /ReferenceError: 'Buffer' is not defined/],
];

/** Host globals a script might look for; none may exist inside. */
const HOST_NAMES = [
  'require',
  'process',
  'module',
  'exports',
  '__dirname',
  '__filename',
  'Buffer',
  'fetch',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'queueMicrotask',
  'WebAssembly',
  'XMLHttpRequest',
  'WebSocket',
  'Worker',
  'std',
  'os',
  'Deno',
  'Bun',
  'global',
];

describe('sandbox: escape attempts fail inside the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  before(() => {
    sandbox = newSandbox();
  });
  after(() => sandbox.close());

  for (const [name, script, message] of ESCAPES) {
    it(`${name}: ok:false with a clear message`, async () => {
      const r = await sandbox.run(job(script));
      expect(r.ok).to.equal(false);
      expect(r.error?.message).to.match(message);
      expect(r.error?.line).to.be.a('number');
      expect(r).to.not.have.property('result');
    });
  }

  it("finds none of the host's globals, and only the contract's own beyond the language's", async () => {
    const r = await sandbox.run(
      job(
        `result = { found: ${JSON.stringify(HOST_NAMES)}.filter((n) => typeof globalThis[n] !== 'undefined'), own: Object.getOwnPropertyNames(globalThis).filter((n) => /^[a-z]/.test(n)) };`,
      ),
    );
    expect(r.ok).to.equal(true);
    expect((r.result as { found: string[] }).found).to.deep.equal([]);
    const own = (r.result as { own: string[] }).own;
    expect(
      own
        .filter(
          (n) =>
            ![
              'parseInt',
              'parseFloat',
              'isNaN',
              'isFinite',
              'decodeURI',
              'decodeURIComponent',
              'encodeURI',
              'encodeURIComponent',
              'escape',
              'unescape',
              'undefined',
              'eval',
              'globalThis',
            ].includes(n),
        )
        .sort(),
    ).to.deep.equal(['console', 'input', 'result', 'service']);
  });

  it("cannot replace the contract's service or console", async () => {
    const r = await sandbox.run(job('"use strict";\nservice = { route: { push() {} } };'));
    expect(r.ok).to.equal(false);
    expect(r.error?.message).to.match(/TypeError/);
    const frozen = await sandbox.run(job('service.route.push = () => {};'));
    expect(frozen.ok).to.equal(false);
  });
});

describe('sandbox: only JSON crosses the boundary', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  before(() => {
    sandbox = newSandbox();
  });
  after(() => sandbox.close());

  const plain = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    expect([Object.prototype, Array.prototype]).to.include(Object.getPrototypeOf(value));
    for (const key of Object.keys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
      expect(descriptor, key).to.have.property('value');
      plain(descriptor.value);
    }
  };

  it('reads a result with getters and toJSON as the JSON they produce, as plain host data', async () => {
    const r = await sandbox.run(
      job(
        'class Secret { get hidden() { return "h"; } }\nresult = { get x() { return 1; }, nested: { toJSON() { return { replaced: true }; } }, list: [new Secret(), () => 1], fn: () => 2 };',
      ),
    );
    expect(r.ok).to.equal(true);
    expect(r.result).to.deep.equal({ x: 1, nested: { replaced: true }, list: [{}, null] });
    plain(r.result);
  });

  it('drops __proto__ keys, so a result merged into a host object cannot change its prototype', async () => {
    const r = await sandbox.run(
      job(
        'result = JSON.parse(\'{"__proto__": {"polluted": true}, "a": {"__proto__": {"deep": 1}, "b": 2}}\');\nservice.route.push(JSON.parse(\'{"__proto__": {"polluted": true}}\'));',
      ),
    );
    expect(r.ok).to.equal(true);
    expect(r.result).to.deep.equal({ a: { b: 2 } });
    expect(Object.hasOwn(r.result as object, '__proto__')).to.equal(false);
    const merged = Object.assign({}, r.result, r.pushed[0]);
    expect((merged as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
  });

  it('is not fooled by a script that replaces JSON.stringify or pollutes its own prototypes', async () => {
    const r = await sandbox.run(
      job(
        'JSON.stringify = () => \'{"forged": true}\';\nObject.prototype.toJSON = undefined;\nArray.prototype.map = () => "x";\nresult = { real: [1, 2] };\nservice.route.push({ also: "real" });\nconsole.log({ logged: 1 });',
      ),
    );
    expect(r.ok).to.equal(true);
    expect(r.result).to.deep.equal({ real: [1, 2] });
    expect(r.pushed).to.deep.equal([{ also: 'real' }]);
    expect(r.logs).to.deep.equal(['{"logged":1}']);
    expect(Object.prototype).to.not.have.property('toJSON');
  });

  it('answers ok:false for a result that is not JSON (cycle, BigInt), and for a push that is not', async () => {
    const cyclic = await sandbox.run(job('const a = {};\na.self = a;\nresult = a;'));
    expect(cyclic.ok).to.equal(false);
    expect(cyclic.error?.message).to.match(/TypeError.*circular/i);
    const big = await sandbox.run(job('result = { n: 10n };'));
    expect(big.ok).to.equal(false);
    expect(big.error?.message).to.match(/TypeError/);
    const fn = await sandbox.run(job('\nservice.route.push(() => 1);'));
    expect(fn.ok).to.equal(false);
    expect(fn.error).to.deep.include({ message: 'TypeError: service.route.push: the value is not JSON', line: 2 });
  });

  it('does not leak host objects in input: the script gets a copy, and its changes do not come back', async () => {
    const headers = { 'x-a': '1' };
    const r = await sandbox.run(
      job(
        'input.headers["x-a"] = "changed";\nObject.prototype.injected = 1;\nresult = Object.getPrototypeOf(input.headers) === Object.prototype;',
        { input: { body: 'text', headers, key: null } },
      ),
    );
    expect(r.result).to.equal(true);
    expect(headers).to.deep.equal({ 'x-a': '1' });
    expect(({} as { injected?: unknown }).injected).to.equal(undefined);
  });
});

describe('sandbox: runaway scripts end as ok:false within the deadline, and the host stays responsive', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  before(() => {
    sandbox = newSandbox({ backstopMarginMs: BACKSTOP_MARGIN });
  });
  after(() => sandbox.close());

  async function runaway(
    script: string,
    extra: Parameters<typeof job>[1] = {},
  ): Promise<{ result: SandboxResult; ms: number; ticks: number; longestGapMs: number }> {
    const { value, ticks, longestGapMs } = await whileTicking(() => timed(sandbox, job(script, extra)));
    return { ...value, ticks, longestGapMs };
  }

  /** The host's timers kept firing while the script ran (it never ran on the host's thread). */
  function hostStayedResponsive(run: { ms: number; ticks: number; longestGapMs: number }): void {
    expect(run.longestGapMs, 'longest pause of the host event loop').to.be.below(Math.max(600, DEADLINE / 2));
    if (run.ms > 400) expect(run.ticks).to.be.at.least(Math.floor(run.ms / 20 / 4));
  }

  it('while(true){}: deadline', async () => {
    const run = await runaway('let n = 0;\nwhile (true) { n++; }');
    expect(run.result.ok).to.equal(false);
    expect(run.result.error).to.deep.include({
      limit: 'deadline',
      message: `the script ran past its deadline of ${DEADLINE} ms`,
    });
    expect(run.ms)
      .to.be.at.least(DEADLINE * 0.9)
      .and.below(ANSWER_WITHIN);
    hostStayedResponsive(run);
  });

  it('a loop that catches the interrupt and loops again: deadline', async () => {
    const run = await runaway('for (;;) { try { while (true) {} } catch (e) { result = "caught"; } }');
    expect(run.result.ok).to.equal(false);
    expect(run.result.error?.limit).to.equal('deadline');
    expect(run.ms).to.be.below(ANSWER_WITHIN);
    hostStayedResponsive(run);
  });

  it('a memory bomb: memory (or the deadline, when the collector thrashes near the limit first)', async () => {
    const large = await runaway('const chunks = [];\nfor (;;) chunks.push(new ArrayBuffer(4 * 1024 * 1024));');
    expect(large.result.ok).to.equal(false);
    expect(large.result.error?.limit).to.equal('memory');
    expect(large.ms).to.be.below(ANSWER_WITHIN);
    const gradual = await runaway('const a = [];\nwhile (true) a.push("x".repeat(1000) + a.length);');
    expect(gradual.result.ok).to.equal(false);
    expect(gradual.result.error?.limit).to.be.oneOf(['memory', 'deadline']);
    expect(gradual.ms).to.be.below(ANSWER_WITHIN);
    hostStayedResponsive(gradual);
    const huge = await runaway('result = "x".repeat(1e9).length;');
    expect(huge.result.error?.limit).to.equal('memory');
    // ArrayBuffer contents escape QuickJS's own accounting; the worker's WebAssembly memory ceiling catches them.
    const typed = await runaway('const held = [];\nfor (;;) held.push(new Uint8Array(1024 * 1024));');
    expect(typed.result.error?.limit).to.equal('memory');
    expect(typed.ms).to.be.below(ANSWER_WITHIN);
  });

  it('deep recursion: stack, with the line', async () => {
    const run = await runaway('function down(n) {\n  return down(n + 1) + 1;\n}\ndown(0);');
    expect(run.result.ok).to.equal(false);
    expect(run.result.error).to.deep.include({ limit: 'stack', line: 2, file: 'main.js' });
    expect(run.ms).to.be.below(ANSWER_WITHIN);
    const parse = await runaway('result = JSON.parse("[".repeat(1e6));');
    expect(parse.result.error?.limit).to.equal('stack');
  });

  it('a promise that never settles: ok:false once the jobs ran out', async () => {
    const awaited = await runaway('await new Promise(() => {});\nresult = "unreachable";');
    expect(awaited.result.ok).to.equal(false);
    expect(awaited.result.error?.message).to.equal('the script awaits a promise that never settles');
    expect(awaited.ms).to.be.below(ANSWER_WITHIN);
    const assigned = await runaway('result = new Promise(() => {});');
    expect(assigned.result.error?.message).to.equal('`result` is a promise that never settles');
    const chained = await runaway(
      'let go;\nconst gate = new Promise((r) => { go = r; });\nresult = gate.then(() => 1);',
    );
    expect(chained.result.ok).to.equal(false);
  });

  it('promise jobs that schedule each other forever: a limit, hit inside the sandbox itself (not the backstop)', async () => {
    const patient = newSandbox({ poolSize: 1, backstopMarginMs: 10_000 });
    try {
      await patient.run(job('result = 1;'));
      // Each chain keeps every promise it made pending on the next, so it grows: on a fast machine
      // it fills the memory before the deadline comes (the allocation then fails inside a promise
      // job, where only the heap's ceiling tells), on a slow one the deadline comes first.
      for (const script of [
        'const again = () => Promise.resolve().then(again);\nagain();',
        'async function loop() { await null; return loop(); }\nresult = loop();',
      ]) {
        const { result, ms } = await timed(patient, job(script));
        expect(result.ok, `${script}: ${JSON.stringify(result)}`).to.equal(false);
        expect(result.error?.limit, `${script}: ${JSON.stringify(result)}`).to.be.oneOf(['deadline', 'memory']);
        expect(ms, script).to.be.below(DEADLINE + 2500);
      }
      // The pool's one worker answers the next run (a fresh one if the last retired with a full heap).
      expect((await patient.run(job('result = 2;'))).result).to.equal(2);
    } finally {
      await patient.close();
    }
  });

  it('a thrown value whose message getter never returns, or whose stack is huge: still a clear result', async () => {
    const getter = await runaway('throw { get message() { while (true) {} } };');
    expect(getter.result.error?.limit).to.equal('deadline');
    expect(getter.ms).to.be.below(ANSWER_WITHIN);
    const huge = await runaway('const e = new Error("short");\ne.stack = "y".repeat(8e6);\nthrow e;');
    expect(huge.result.error).to.deep.equal({ message: 'short' });
  });

  it('10 MB of console.log: output', async () => {
    // Writing 10 MB takes a while on a loaded machine: a longer deadline, so the output limit is what stops it.
    const longerDeadline = { limits: { deadline_ms: OUTPUT_DEADLINE } };
    const one = await runaway('console.log("x".repeat(10 * 1024 * 1024));\nresult = "done";', longerDeadline);
    expect(one.result.ok).to.equal(false);
    expect(one.result.error?.limit).to.equal('output');
    expect(one.result.logs.join('\n').length).to.be.at.most(DEFAULT_LIMITS.output_bytes);
    expect(one.ms).to.be.below(OUTPUT_DEADLINE + BACKSTOP_MARGIN + 2500);
    const many = await runaway(
      'const line = "y".repeat(1023);\nfor (let i = 0; i < 10 * 1024; i++) console.log(line);',
      longerDeadline,
    );
    expect(many.result.ok).to.equal(false);
    expect(many.result.error?.limit).to.equal('output');
    expect(many.result.logs.length).to.be.at.most(1024);
    expect(many.ms).to.be.below(OUTPUT_DEADLINE + BACKSTOP_MARGIN + 2500);
    hostStayedResponsive(many);
    const caught = await runaway('for (;;) { try { console.log("z".repeat(4096)); } catch (e) {} }', longerDeadline);
    expect(caught.result.error?.limit).to.equal('output');
  });

  it('too many pushes, or a result larger than the output limit: ok:false', async () => {
    const pushes = await runaway('for (let i = 0; i < 5000; i++) service.route.push(i);');
    expect(pushes.result.error?.limit).to.equal('pushes');
    expect(pushes.result.pushed).to.have.length(DEFAULT_LIMITS.pushes);
    const large = await runaway('result = "r".repeat(2 * 1024 * 1024);');
    expect(large.result.ok).to.equal(false);
    expect(large.result.error?.limit).to.equal('output');
  });

  it('keeps serving runs after all of that', async () => {
    const r = await sandbox.run(job('result = 6 * 7;'));
    expect(r).to.deep.include({ ok: true, result: 42 });
  });
});
