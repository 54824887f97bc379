import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { generateTypes } from 'openapi-typescript-ts5';
import { fromRoot } from '../../../kernel/paths.js';
import { serveEverything, type Served } from './served.js';

const run = promisify(execFile);

/** Redocly's CLI without its telemetry and update check: the test runs offline. */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location?: Array<{ pointer?: string }> }>;
}

/**
 * Runs a CLI from node_modules/.bin with this very node (not whichever one PATH names); a
 * non-zero exit still yields its output (lint exits 1 on errors).
 */
async function cli(
  name: string,
  args: string[],
  cwd: string,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [fromRoot('node_modules', '.bin', name), ...args], {
      cwd,
      env: OFFLINE,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; code?: number };
    return {
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
      code: typeof failed.code === 'number' ? failed.code : -1,
    };
  }
}

/**
 * A typed client as an API user writes it over openapi-typescript's output: create, list and
 * patch on components, plus what the types must refuse (`@ts-expect-error` fails the compile
 * when the refusal disappears). It is compiled, then run against the live kernel.
 */
const CLIENT = `import type { paths } from './api.js';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type CreateBody = Json<paths['/components']['post']['requestBody']>;
type Created = Json<paths['/components']['post']['responses'][201]>;
type ListQuery = NonNullable<paths['/components']['get']['parameters']['query']>;
type Listed = Json<paths['/components']['get']['responses'][200]>;
type PatchBody = Json<NonNullable<paths['/components/{id}']['patch']['requestBody']>>;
type Patched = Json<paths['/components/{id}']['patch']['responses'][200]>;
type ApiError = Json<paths['/components']['post']['responses'][409]>;

async function send<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(base + path, init);
  if (!res.ok) {
    const failure = (await res.json()) as ApiError;
    throw new Error(method + ' ' + path + ': ' + failure.error.code);
  }
  return (await res.json()) as T;
}

export function componentsClient(base: string, token: string) {
  return {
    create: (body: CreateBody) => send<Created>(base, token, 'POST', '/components', body),
    list(query: ListQuery = {}) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
      return send<Listed>(base, token, 'GET', '/components?' + search.toString());
    },
    patch: (id: string, body: PatchBody) => send<Patched>(base, token, 'PATCH', '/components/' + encodeURIComponent(id), body),
  };
}

export async function scenario(base: string, token: string): Promise<{ created: Created; listed: string[]; patched: Created }> {
  const client = componentsClient(base, token);
  const created = await client.create({ type: 'passthrough', name: 'Typed Client', tags: ['typed'], config: { replicas: 2, image: { name: 'web', pinned: true } } });
  const listed = await client.list({ tag: 'typed', limit: 10, state: 'running' });
  const patched = await client.patch(created.id, { description: 'patched', config: { ...created.config, replicas: 3 } });
  if ('dry_run' in patched) throw new Error('a dry-run report without dry_run=true');
  const revision: number = patched.revision;
  if (revision <= created.revision) throw new Error('the revision did not grow');
  return { created, listed: listed.items.map((c) => c.id), patched };
}

export function refusedByTheTypes(client: ReturnType<typeof componentsClient>): void {
  // @ts-expect-error name is required
  void client.create({ tags: ['x'] });
  // @ts-expect-error the body takes no unknown field
  void client.create({ name: 'x', colour: 'red' });
  // @ts-expect-error state is one of stopped, running, failed
  void client.list({ state: 'paused' });
  // @ts-expect-error limit is a number
  void client.list({ limit: 'ten' });
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: 'out',
    rootDir: '.',
  },
  include: ['*.ts'],
};

describe('/openapi.json in third-party tooling', function () {
  // The tools are real processes (a linter, a code generator, the TypeScript compiler).
  this.timeout(180_000);
  let served: Served;
  let dir: string;
  let file: string;

  before(async () => {
    served = await serveEverything();
    dir = await mkdtemp(join(tmpdir(), 'openapi-tooling-'));
    file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(served.doc));
  });
  after(async () => {
    await served?.tk.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("covers the third-party plugin's routes", () => {
    expect(Object.keys(served.doc.paths)).to.include.members(['/notes', '/notes/{id}', '/notes/{id}/pin']);
  });

  it('passes @redocly/cli lint (recommended rules) with no error and no unused component', async () => {
    const { stdout, stderr } = await cli('redocly', ['lint', file, '--format=json'], dir);
    let report: LintReport;
    try {
      report = JSON.parse(stdout) as LintReport;
    } catch {
      throw new Error(`redocly lint printed no JSON report:\n${stdout}\n${stderr}`);
    }
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location?.[0]?.pointer}: ${p.message}`);
    expect(errors).to.deep.equal([]);
    expect(report.totals.errors).to.equal(0);
    expect(report.problems.filter((p) => p.ruleId === 'no-unused-components').map((p) => p.message)).to.deep.equal([]);
  });

  it("generates, with openapi-typescript's defaults, a client that compiles under strict TypeScript and creates, lists and patches components", async () => {
    await writeFile(join(dir, 'api.ts'), await generateTypes(served.doc));
    await writeFile(join(dir, 'client.ts'), CLIENT);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const compiled = await cli('tsc', ['-p', join(dir, 'tsconfig.json')], dir);
    expect(compiled.stdout + compiled.stderr, 'tsc output').to.equal('');
    expect(compiled.code).to.equal(0);

    const client = (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as {
      scenario(base: string, token: string): Promise<{ created: any; listed: string[]; patched: any }>;
    };
    const { created, listed, patched } = await client.scenario(served.tk.url, served.admin);
    expect(created).to.include({ id: 'typed-client', name: 'Typed Client', state: 'running' });
    expect(created.config).to.deep.equal({ replicas: 2, image: { name: 'web', pinned: true } });
    expect(listed).to.deep.equal(['typed-client']);
    expect(patched).to.include({ id: 'typed-client', description: 'patched' });
    expect(patched.config).to.deep.equal({ replicas: 3, image: { name: 'web', pinned: true } });
    const row = await served.tk.kernel.database
      .knex('components')
      .where({ tenant_id: 'default', id: 'typed-client' })
      .first();
    expect(row.description).to.equal('patched');
  });
});
