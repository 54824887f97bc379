import { expect } from 'chai';
import { loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { terminal } from './terminal-session.js';

/**
 * The terminal evaluates expressions in a workspace whose main.js needs an input (it decodes a
 * body), over the real terminal socket: its own help example answers before any run, a `run`'s
 * input is kept for the expressions after it, and an expression's own error is still reported.
 */

const NEEDS_INPUT = {
  'main.js': [
    'const value = service.json.decode(input.body);',
    'globalThis.seen = value;',
    'result = value.a * 10;',
  ].join('\n'),
};

describe('studio terminal: expressions when main.js needs an input', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'studio'] });
    admin = await loginAdmin(tk);
    const created = await tk.request('POST', '/studio/workspaces', {
      token: admin,
      body: { id: 'needs-input', name: 'needs input', files: NEEDS_INPUT },
    });
    expect(created.status, created.text).to.equal(201);
  });
  after(() => tk?.close());

  it('answers its own help example before any run, saying main.js was not run', async () => {
    const t = await terminal(tk, admin, 'needs-input');
    const example = /<expression>.*\(e\.g\. ([^,)]+)/.exec(String(t.ready.help))?.[1];
    expect(example, t.ready.help).to.equal('1 + 2');
    const answer = await t.line(example as string);
    expect(answer, JSON.stringify(answer)).to.include({ ok: true, result: 3 });
    expect(answer.note).to.contain('main.js failed').and.contain('run <json>');
    expect(answer.output.split('\n').at(-1)).to.equal('3');
    await t.close();
  });

  it("keeps the last run's input: expressions see what main.js made of it", async () => {
    const t = await terminal(tk, admin, 'needs-input');
    const run = await t.line('run {"a":4}');
    expect(run.ok, JSON.stringify(run)).to.equal(true);
    expect(run.result.result).to.equal(40);
    const seen = await t.line('seen.a + 1');
    expect(seen, JSON.stringify(seen)).to.include({ ok: true, result: 5 });
    expect(seen.note).to.equal(undefined);
    const result = await t.line('result');
    expect(result, JSON.stringify(result)).to.include({ ok: true, result: 40 });
    await t.close();
  });

  it("reports an expression's own error, and main.js's when the expression needs what main.js failed to make", async () => {
    const t = await terminal(tk, admin, 'needs-input');
    const broken = await t.line('undefinedThing.x');
    expect(broken.ok).to.equal(false);
    expect(broken.error.message).to.be.a('string').and.not.equal('');
    const needsMain = await t.line('seen.a');
    expect(needsMain.ok).to.equal(false);
    await t.close();
  });
});
