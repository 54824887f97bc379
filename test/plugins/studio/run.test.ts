import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { createTenant, loginAdmin, mintToken } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

const ECHO = [
  'const body = input.body;',
  "const kind = body === null ? 'null' : typeof body === 'string' ? 'text' : 'bytes';",
  "const value = kind === 'text' && input.headers['content-type'] === 'application/json' ? service.json.decode(body) : null;",
  "console.log('kind', kind);",
  'service.route.push({ kind, length: body === null ? 0 : body.length });',
  'result = { kind, value, key: input.key, headers: input.headers };',
].join('\n');

describe('studio: run and test a workspace in the sandbox', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;
  let viewer: string;
  let other: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    admin = await loginAdmin(tk);
    viewer = await mintToken(tk, admin, ['viewer']);
    await createTenant(tk, admin, 'run-other');
    other = await mintToken(tk, admin, ['admin'], { tenantId: 'run-other' });
    const files = {
      'main.js':
        "import { double } from './lib/math.js';\nconst v = service.json.decode(input.body);\nservice.route.push(double(v.a));\nconsole.log('a is', v.a);\nresult = { doubled: double(v.a) };\n",
      'lib/math.js': 'export function double(x) { return x * 2; }\n',
      'echo.js': ECHO,
      'broken.js': "const a = 1;\nconst b = 2;\nthrow new Error('broken on purpose');\n",
      'spin.js': 'while (true) {}\n',
      'tests/doubles.json': JSON.stringify({
        input: { value: { a: 2 } },
        expect: { result: { doubled: 4 }, pushed: [4] },
      }),
      'tests/expects-wrong.json': JSON.stringify({ input: { value: { a: 2 } }, expect: { result: { doubled: 5 } } }),
      'tests/not-json.json': '{ nope',
      'tests/throws.json': JSON.stringify({ entry: 'broken.js', input: {}, expect: { result: null } }),
    };
    expect(
      (await tk.request('POST', '/studio/workspaces', { token: admin, body: { id: 'runner', name: 'runner', files } }))
        .status,
    ).to.equal(201);
  });
  after(() => tk?.close());

  const run = (body: unknown, token = admin, id = 'runner') =>
    tk.request('POST', `/studio/workspaces/${id}/run`, { token, body });

  it('runs main.js with a value: result, pushed, logs, duration, imports by relative path; audited once as a write', async () => {
    const res = await run({ input: { value: { a: 21 } } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({
      ok: true,
      result: { doubled: 42 },
      pushed: [42],
      logs: ['a is 21'],
      revision: 1,
    });
    expect(res.body.duration_ms).to.be.a('number');
    expect(res.body).to.not.have.property('error');
    const records = await tk.kernel.database
      .knex('audit_records')
      .where({ operation: 'runWorkspace', resource_id: 'runner' });
    expect(records).to.have.length(1);
    expect(records[0]).to.include({ status: 200, outcome: 'success' });
  });

  it('gives the script body_text as a string, body_base64 as bytes, headers and key', async () => {
    const text = await run({
      entry: 'echo.js',
      input: { body_text: '{"x":1}', headers: { 'Content-Type': 'application/json' }, key: 'k1' },
    });
    expect(text.body, text.text).to.deep.include({
      ok: true,
      result: { kind: 'text', value: { x: 1 }, key: 'k1', headers: { 'content-type': 'application/json' } },
    });
    const bytes = await run({
      entry: 'echo.js',
      input: { body_base64: Buffer.from([1, 2, 3, 255]).toString('base64') },
    });
    expect(bytes.body, bytes.text).to.deep.include({ ok: true, pushed: [{ kind: 'bytes', length: 4 }] });
    expect(bytes.body.result).to.include({ kind: 'bytes', key: null });
    const none = await run({ entry: 'echo.js' });
    expect(none.body.result).to.include({ kind: 'null' });
  });

  it('answers a script error with 200, ok:false and the line it threw on', async () => {
    const res = await run({ entry: 'broken.js' });
    expect(res.status).to.equal(200);
    expect(res.body.ok).to.equal(false);
    expect(res.body.error.message).to.contain('broken on purpose');
    expect(res.body.error.line).to.equal(3);
  });

  it('answers a script that never ends with 200, ok:false and the deadline limit', async () => {
    const started = Date.now();
    const res = await run({ entry: 'spin.js' });
    expect(res.status).to.equal(200);
    expect(res.body.ok).to.equal(false);
    expect(res.body.error.limit).to.equal('deadline');
    expect(Date.now() - started).to.be.below(15_000);
  });

  it('holds no database connection while a script runs: other calls are answered meanwhile', async () => {
    let runDoneAt = 0;
    const spinning = run({ entry: 'spin.js' }).then((res) => ((runDoneAt = Date.now()), res));
    await new Promise((r) => setTimeout(r, 100));
    const list = await tk.request('GET', '/studio/workspaces', { token: admin });
    const listDoneAt = Date.now();
    const spun = await spinning;
    expect(list.status).to.equal(200);
    expect(spun.body.error.limit).to.equal('deadline');
    // The list was answered while the script still spun, not after its deadline.
    expect(listDoneAt).to.be.below(runDoneAt);
    expect(
      await tk.kernel.database.knex('audit_records').where({ operation: 'runWorkspace', resource_id: 'runner' }),
    ).to.have.length.at.least(2);
  });

  it('refuses an entry that is not a file, two bodies at once, bad base64 (400)', async () => {
    const missing = await run({ entry: 'nope.js' });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.details[0]).to.include({ pointer: '/entry' });
    expect((await run({ input: { value: 1, body_text: '1' } })).status).to.equal(400);
    expect((await run({ input: { body_base64: '***' } })).status).to.equal(400);
    // This kernel runs without the codecs and streams plugins.
    expect((await run({ input: { codec: 'any', body_text: 'x' } })).status).to.equal(501);
  });

  it('refuses a viewer (403) and another tenant (404)', async () => {
    expect((await run({}, viewer)).status).to.equal(403);
    expect((await run({}, other)).status).to.equal(404);
    expect((await tk.request('POST', '/studio/workspaces/runner/test', { token: viewer, body: {} })).status).to.equal(
      403,
    );
  });

  it('tests every tests/*.json case and reports each: pass, wrong result, unreadable case, script error', async () => {
    const res = await tk.request('POST', '/studio/workspaces/runner/test', { token: admin, body: {} });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ passed: 1, failed: 3, revision: 1 });
    const byName = Object.fromEntries(res.body.cases.map((c: any) => [c.name, c]));
    expect(res.body.cases.map((c: any) => c.name)).to.deep.equal(['doubles', 'expects-wrong', 'not-json', 'throws']);
    expect(byName.doubles).to.deep.include({
      ok: true,
      expected: { result: { doubled: 4 }, pushed: [4] },
      actual: { result: { doubled: 4 }, pushed: [4] },
    });
    expect(byName['expects-wrong']).to.deep.include({
      ok: false,
      expected: { result: { doubled: 5 } },
      actual: { result: { doubled: 4 }, pushed: [4] },
    });
    expect(byName['not-json'].ok).to.equal(false);
    expect(byName['not-json'].error.message).to.contain('not JSON');
    expect(byName.throws.ok).to.equal(false);
    expect(byName.throws.error).to.include({ line: 3 });
    expect(
      await tk.kernel.database
        .knex('audit_records')
        .where({ operation: 'testWorkspace', resource_id: 'runner', outcome: 'success' }),
    ).to.have.length(1);
  });

  it('runs the current revision after a PUT (no stale cached files)', async () => {
    const put = await tk.request('PUT', '/studio/workspaces/runner/files', {
      token: admin,
      body: { files: { 'lib/math.js': 'export function double(x) { return x * 3; }\n' } },
    });
    expect(put.status).to.equal(200);
    const res = await run({ input: { value: { a: 2 } } });
    expect(res.body).to.deep.include({ ok: true, result: { doubled: 6 }, revision: 2 });
  });

  it('never answers with a run of files that are no longer current: a workspace deleted is 404, one re-created under the id runs its own files', async () => {
    const first = { 'main.js': 'result = { which: "first" };\n' };
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'recreated', name: 'recreated', files: first },
        })
      ).status,
    ).to.equal(201);
    // Runs this instance saw current: the next run may start on these files before the check answers.
    expect((await run({}, admin, 'recreated')).body).to.deep.include({
      ok: true,
      result: { which: 'first' },
      revision: 1,
    });
    expect((await tk.request('DELETE', '/studio/workspaces/recreated', { token: admin })).status).to.equal(204);
    const gone = await run({}, admin, 'recreated');
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('not_found');
    expect((await run({}, admin, 'recreated')).status).to.equal(404);
    const second = { 'main.js': 'result = { which: "second" };\n' };
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'recreated', name: 'recreated', files: second },
        })
      ).status,
    ).to.equal(201);
    expect((await run({}, admin, 'recreated')).body).to.deep.include({
      ok: true,
      result: { which: 'second' },
      revision: 1,
    });
    // And another tenant naming the same id never gets this tenant's run.
    expect((await run({}, other, 'recreated')).status).to.equal(404);
  });
});

describe("studio: a run's input decoded by a codec", function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: ['system', 'identity', 'audit', 'codecs', 'streams', 'studio'] });
    admin = await loginAdmin(tk);
    expect(
      (
        await tk.request('POST', '/codecs', {
          token: admin,
          body: { id: 'orders-csv', name: 'orders', kind: 'csv', schema: { header: true } },
        })
      ).status,
    ).to.equal(201);
    const files = { 'main.js': 'const rows = service.json.decode(input.body);\nresult = rows.map((r) => r.sku);\n' };
    expect(
      (
        await tk.request('POST', '/studio/workspaces', {
          token: admin,
          body: { id: 'decoding', name: 'decoding', files },
        })
      ).status,
    ).to.equal(201);
  });
  after(() => tk?.close());

  it("decodes body_text or body_base64 with the tenant's codec before the script sees it", async () => {
    const csv = 'sku,qty\na,1\nb,2\n';
    const text = await tk.request('POST', '/studio/workspaces/decoding/run', {
      token: admin,
      body: { input: { codec: 'orders-csv', body_text: csv } },
    });
    expect(text.status, text.text).to.equal(200);
    expect(text.body).to.deep.include({ ok: true, result: ['a', 'b'] });
    const bytes = await tk.request('POST', '/studio/workspaces/decoding/run', {
      token: admin,
      body: { input: { codec: 'orders-csv', body_base64: Buffer.from(csv).toString('base64') } },
    });
    expect(bytes.body).to.deep.include({ ok: true, result: ['a', 'b'] });
  });

  it('refuses an unknown codec, a codec with a value, and bytes the codec cannot read (400)', async () => {
    const unknown = await tk.request('POST', '/studio/workspaces/decoding/run', {
      token: admin,
      body: { input: { codec: 'nope', body_text: 'x' } },
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details[0]).to.include({ pointer: '/input/codec' });
    expect(
      (
        await tk.request('POST', '/studio/workspaces/decoding/run', {
          token: admin,
          body: { input: { codec: 'orders-csv', value: 1 } },
        })
      ).status,
    ).to.equal(400);
    expect(
      (
        await tk.request('POST', '/studio/workspaces/decoding/run', {
          token: admin,
          body: { input: { codec: 'orders-csv', body_text: 'sku,qty\na,1,extra\n' } },
        })
      ).status,
    ).to.equal(400);
  });
});
