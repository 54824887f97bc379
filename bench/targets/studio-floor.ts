import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { getQuickJS } from 'quickjs-emscripten';
import { connectDatabase } from '../../kernel/db/connect.js';
import { runMigrations } from '../../kernel/db/migrate.js';
import { createAudit } from '../../plugins/audit/migrations/001_audit.js';
import { sealAudit } from '../../plugins/audit/migrations/002_audit_seals.js';
import { insertRecord } from '../../plugins/audit/store.js';
import { createStudio } from '../../plugins/studio/migrations/001_studio.js';
import { WorkspaceStore } from '../../plugins/studio/store.js';
import { serveJsonPost } from './serve.js';

/**
 * The floor for `npm run bench studio`: a bare Koa handler that evaluates the posted script
 * directly with quickjs-emscripten in this process, in one context reused for every request
 * (no worker thread, no fresh context, no limits, no database, no audit) — the least a run can
 * cost: one HTTP round trip plus the interpreter's own work.
 *
 * With BENCH_FLOOR_DATABASE (a database of its own: another PGlite directory, or another
 * schema) it is the audited floor: the same handler also makes the two statements the spec
 * requires of a run, as a run makes them — it reads the workspace's current revision and, before
 * answering, inserts the run's audit record (a run counts as a write) — and nothing else: no
 * pipeline, no sealer chaining the records beside it, no worker thread, no fresh context.
 */
const floorDatabase = process.env.BENCH_FLOOR_DATABASE
  ? (JSON.parse(process.env.BENCH_FLOOR_DATABASE) as { url?: string; data_dir?: string; schema?: string })
  : undefined;
const WORKSPACE = 'bench-run';
let db: Knex | undefined;
if (floorDatabase) {
  db = (await connectDatabase({ pool_max: 10, ready_timeout_ms: 1000, ...floorDatabase })).knex;
  await runMigrations(db, [
    { owner: 'audit', migrations: [createAudit, sealAudit] },
    { owner: 'studio', migrations: [createStudio] },
  ]);
  await new WorkspaceStore(db).insert(
    'default',
    WORKSPACE,
    { name: 'bench' },
    { files: { 'main.js': '' }, changed: ['main.js'], deleted: [], source: 'api', createdBy: null },
    new Date(),
  );
}

async function auditRun(database: Knex, revision: number): Promise<void> {
  await insertRecord(database, {
    tenant_id: 'default',
    id: randomUUID(),
    at: new Date().toISOString(),
    operation: 'runWorkspace',
    method: 'POST',
    path: `/studio/workspaces/${WORKSPACE}/run`,
    resource_id: WORKSPACE,
    status: 200,
    outcome: 'success',
    error_code: null,
    request_id: randomUUID(),
    idempotency_key: null,
    subject_id: null,
    credential_kind: null,
    credential_id: null,
    actor_type: 'human',
    agent_id: null,
    actor_id: null,
    actor_email: null,
    fields: {},
    detail: { revision },
    severity: 'info',
    transport: 'http',
  });
}
const quickjs = await getQuickJS();
const context = quickjs.newContext();
const prepare = context.unwrapResult(
  context.evalCode(`(function (json) {
  const captured = { pushed: [], logs: [] };
  globalThis.input = JSON.parse(json);
  globalThis.result = undefined;
  globalThis.service = { json: { decode: (raw) => JSON.parse(raw) }, route: { push: (v) => { captured.pushed.push(v); } } };
  globalThis.console = { log: (...args) => { captured.logs.push(args.map((a) => typeof a === 'string' ? a : JSON.stringify(a)).join(' ')); } };
  globalThis.__captured = captured;
})`),
);
const collect = context.unwrapResult(
  context.evalCode(
    '(function () { return JSON.stringify({ result: globalThis.result, pushed: __captured.pushed, logs: __captured.logs }); })',
  ),
);

serveJsonPost('/run', async (parsed) => {
  const request = parsed as { script: string; input: { value: unknown } };
  const head = db ? await new WorkspaceStore(db).head('default', WORKSPACE) : undefined;
  const started = performance.now();
  const json = context.newString(JSON.stringify({ body: JSON.stringify(request.input.value), headers: {}, key: null }));
  context.unwrapResult(context.callFunction(prepare, context.undefined, json)).dispose();
  json.dispose();
  // A block, so the script's const declarations do not collide with the previous request's in the reused context.
  const evaluated = context.evalCode(`{\n${request.script}\n}`, 'main.js');
  if (evaluated.error) {
    const error = context.dump(evaluated.error) as { message?: string };
    evaluated.error.dispose();
    return { status: 200, body: { ok: false, error: { message: String(error?.message) } } };
  }
  evaluated.value.dispose();
  const out = context.unwrapResult(context.callFunction(collect, context.undefined));
  const collected = JSON.parse(context.getString(out)) as Record<string, unknown>;
  out.dispose();
  const body = { ok: true, ...collected, duration_ms: Math.round((performance.now() - started) * 100) / 100 };
  if (db) await auditRun(db, head?.revision ?? 0);
  return { status: 200, body };
});
