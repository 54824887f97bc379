import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin, mintToken } from '../../support/identity.js';
import { terminal } from './terminal-session.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

const FILES = {
  'main.js': [
    "import { double } from './lib/math.js';",
    'const value = input.body === null ? null : service.json.decode(input.body);',
    "console.log('got', JSON.stringify(value));",
    'if (value !== null) service.route.push({ doubled: double(value.a) });',
    'result = { seen: value };',
    'globalThis.answer = 42;',
  ].join('\n'),
  'lib/math.js': 'export function double(x) { return x * 2; }\n',
  'tests/one.json': JSON.stringify({
    input: { value: { a: 1 } },
    expect: { result: { seen: { a: 1 } }, pushed: [{ doubled: 2 }] },
  }),
  'tests/wrong.json': JSON.stringify({ input: { value: { a: 2 } }, expect: { pushed: [{ doubled: 5 }] } }),
};

describe("studio terminal: a line REPL into the workspace's sandbox, never a shell", function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let viewer: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    admin = await loginAdmin(tk);
    viewer = await mintToken(tk, admin, ['viewer']);
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'term', name: 'term', files: FILES },
        })
      ).status,
    ).to.equal(201);
  });
  after(() => tk?.close());

  it('answers ls, cat, run {"a":1}, test, an expression, and refuses shell commands', async () => {
    const t = await terminal(tk, admin, 'term');
    expect(t.ready).to.include({ ready: true, workspace_id: 'term', can_run: true });

    const ls = await t.line('ls');
    expect(ls.ok).to.equal(true);
    expect(ls.result.files).to.deep.equal(['lib/math.js', 'main.js', 'tests/one.json', 'tests/wrong.json']);
    expect(ls.output).to.contain('lib/math.js\t');
    expect((await t.line('ls tests')).result.files).to.deep.equal(['tests/one.json', 'tests/wrong.json']);

    const cat = await t.line('cat lib/math.js');
    expect(cat).to.include({ ok: true, output: FILES['lib/math.js'] });
    const missing = await t.line('cat nope.js');
    expect(missing.ok).to.equal(false);
    expect(missing.error.message).to.contain('no such file');

    const run = await t.line('run {"a":1}');
    expect(run.ok, JSON.stringify(run)).to.equal(true);
    expect(run.result).to.deep.include({ ok: true, result: { seen: { a: 1 } }, pushed: [{ doubled: 2 }] });
    expect(run.output).to.contain('got {"a":1}');
    expect((await t.line('run {not json')).error.message).to.contain('not JSON');

    const test = await t.line('test');
    expect(test.ok).to.equal(false);
    expect(test.result).to.include({ passed: 1, failed: 1 });
    expect(test.output).to.contain('ok   one').and.contain('FAIL wrong').and.contain('1 passed, 1 failed');

    const expression = await t.line('1 + 2');
    expect(expression, JSON.stringify(expression)).to.include({ ok: true, result: 3 });
    const loaded = await t.line('answer * 2');
    expect(loaded, JSON.stringify(loaded)).to.include({ ok: true, result: 84 });
    const thrown = await t.line('undefinedThing.x');
    expect(thrown.ok).to.equal(false);
    expect(thrown.error.message).to.be.a('string');

    for (const line of [
      'rm -rf /',
      'ls -la',
      'cat /etc/passwd; echo hi',
      'bash',
      'curl http://example.com',
      '$ whoami',
      '/bin/sh -c id',
      'sudo reboot',
    ]) {
      const refused = await t.line(line);
      expect(refused.ok, line).to.equal(false);
      expect(refused.error.message, line).to.contain('not an operating-system shell');
    }
    const help = await t.line('help');
    expect(help.output).to.contain('run [json]');
    await t.close();

    const audited = await tk.kernel.database
      .knex('audit_records')
      .where({ operation: 'openTerminalSocket', resource_id: 'term' });
    expect(
      audited.map((r: any) => (typeof r.fields === 'string' ? JSON.parse(r.fields) : r.fields).command).sort(),
    ).to.deep.equal(['expression', 'expression', 'expression', 'run', 'test']);
  });

  it('lets a viewer list and read but not run, test or evaluate', async () => {
    const t = await terminal(tk, viewer, 'term');
    expect(t.ready.can_run).to.equal(false);
    expect((await t.line('ls')).ok).to.equal(true);
    expect((await t.line('cat main.js')).output).to.equal(FILES['main.js']);
    for (const line of ['run {"a":1}', 'test', '1 + 2']) {
      const refused = await t.line(line);
      expect(refused.ok, line).to.equal(false);
      expect(refused.error.message, line).to.contain('studio:write');
    }
    await t.close();
  });
});
