import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQuickJS } from 'quickjs-emscripten';
import { createSandbox } from '../sandbox/index.js';
import { load, ratio, startTarget, type Figures, type Running } from './harness.js';
import type { BenchContext, Scenario } from './scenarios.js';

/** A small, typical studio script: decode the body, compute, push one value, log a line, set result. */
const SCRIPT = [
  'const order = service.json.decode(input.body);',
  'let total = 0;',
  'for (const item of order.items) total += item.price * item.qty;',
  'service.route.push({ id: order.id, total });',
  "console.log('order', order.id, 'total', total);",
  'result = { id: order.id, count: order.items.length, total };',
].join('\n');
const VALUE = {
  id: 'o-1',
  items: [
    { sku: 'a', price: 2.5, qty: 4 },
    { sku: 'b', price: 10, qty: 1 },
    { sku: 'c', price: 0.75, qty: 8 },
  ],
};
const EXPECTED = { id: 'o-1', count: 3, total: 26 };
const WORKSPACE = 'bench-run';
const SAMPLES = Number(process.env.BENCH_STUDIO_SAMPLES ?? 400);
const CLIENTS = 8;
const SECONDS = 5;

function kernelEnv(context: BenchContext): Record<string, string> {
  return {
    BENCH_OVERRIDES: JSON.stringify({
      plugins: ['system', 'audit', 'studio'],
      auth: { mode: 'none' },
      log: { level: 'warn' },
      database: context.database,
    }),
  };
}

/** A database of the audited floor's own, beside the kernel's: PGlite holds one process per directory. */
function floorDatabase(context: BenchContext): string {
  const database = context.database as { url?: string; schema?: string };
  if (database.url) return JSON.stringify({ url: database.url, schema: `${database.schema ?? 'bench'}_floor` });
  return JSON.stringify({ data_dir: mkdtempSync(join(tmpdir(), 'bench-studio-floor-')) });
}

async function withTarget<T>(
  name: string,
  env: Record<string, string>,
  work: (target: Running) => Promise<T>,
): Promise<T> {
  const target = await startTarget(name, env);
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

interface Call {
  url: string;
  /** A POST with this body; a GET without. */
  body?: string;
}

async function post(call: Call): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(
    call.url,
    call.body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: call.body },
  );
  const parsed = (await res.json()) as { ok?: boolean; result?: unknown };
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200 || (call.body !== undefined && parsed.ok !== true))
    throw new Error(`${call.url} answered ${res.status}: ${JSON.stringify(parsed)}`);
  return ms;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((p, q) => p - q);
  return Math.round((sorted[Math.floor(sorted.length / 2)] as number) * 1000) / 1000;
};

/** Median latencies of calls made in turn, one at a time, the order rotating, so machine noise falls on all alike. */
async function alternating(calls: Call[], count: number): Promise<number[]> {
  const samples: number[][] = calls.map(() => []);
  for (let i = 0; i < count + 50; i++) {
    for (let j = 0; j < calls.length; j++) {
      const index = (i + j) % calls.length;
      const ms = await post(calls[index] as Call);
      if (i >= 50) (samples[index] as number[]).push(ms);
    }
  }
  return samples.map(median);
}

/** Without HTTP: the sandbox service (worker pool) against the same script evaluated in-process in a reused context. */
async function withoutHttp(): Promise<Record<string, unknown>> {
  const quickjs = await getQuickJS();
  const context = quickjs.newContext();
  const body = JSON.stringify(VALUE);
  context
    .unwrapResult(
      context.evalCode(
        `globalThis.service = { json: { decode: (r) => JSON.parse(r) }, route: { push() {} } }; globalThis.console = { log() {} };`,
      ),
    )
    .dispose();
  const parse = context.unwrapResult(context.evalCode('JSON.parse'));
  const direct = (): number => {
    const started = performance.now();
    const json = context.newString(JSON.stringify({ body, headers: {}, key: null }));
    const input = context.unwrapResult(context.callFunction(parse, context.undefined, json));
    context.setProp(context.global, 'input', input);
    input.dispose();
    json.dispose();
    // A block, so the script's const declarations do not collide with the previous evaluation's in the reused context.
    context.unwrapResult(context.evalCode(`{\n${SCRIPT}\n}`)).dispose();
    context.unwrapResult(context.evalCode('JSON.stringify(result)')).consume((h) => JSON.parse(context.getString(h)));
    return performance.now() - started;
  };
  const sandbox = createSandbox({ poolSize: 2 });
  try {
    const job = { tenantId: 'bench', files: { 'main.js': SCRIPT }, input: { body, headers: {}, key: null } };
    const viaPool = async (): Promise<number> => {
      const started = performance.now();
      const r = await sandbox.run(job);
      if (!r.ok) throw new Error(`sandbox run failed: ${JSON.stringify(r.error)}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 100; i++) {
      direct();
      await viaPool();
    }
    const directSamples: number[] = [];
    const poolSamples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      directSamples.push(direct());
      poolSamples.push(await viaPool());
    }
    let done = 0;
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) {
          await viaPool();
          done += 1;
        }
      }),
    );
    return {
      direct_median_ms: median(directSamples),
      sandbox_service_median_ms: median(poolSamples),
      sandbox_service_runs_per_s_8_callers: Math.round(done / SECONDS),
    };
  } finally {
    parse.dispose();
    context.dispose();
    await sandbox.close();
  }
}

/**
 * `npm run bench studio`: median latency of POST /studio/workspaces/{id}/run (kernel: pipeline,
 * workspace files, sandbox worker, fresh QuickJS context, audit record) against a floor — the same
 * script evaluated directly with quickjs-emscripten in-process (reused context) behind a bare Koa
 * handler, one HTTP round trip — measured alternately in the same run (target ≤ 1.5×); then
 * runs/s with 8 concurrent clients, and the sandbox service's figures without HTTP.
 * Alongside, the audited floor (ratio_latency_audited_floor): the same direct evaluation plus
 * the revision read and the audit insert the spec requires of a run (a run counts as a write),
 * and nothing more — the floor any implementation meeting the spec is measured against.
 */
export const studioScenario: Scenario = {
  name: 'studio',
  title:
    'POST /studio/workspaces/{id}/run median latency vs direct QuickJS + bare Koa round trip (target ≤ 1.5×); runs/s with 8 clients',
  async run(context) {
    const service = await withoutHttp();
    const env = kernelEnv(context);
    return withTarget('kernel', env, (kernel) =>
      withTarget('studio-floor', {}, (floor) =>
        withTarget('studio-floor', { BENCH_FLOOR_DATABASE: floorDatabase(context) }, async (auditedFloor) => {
          const created = await fetch(`${kernel.url}/studio/workspaces`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: WORKSPACE, name: 'bench', files: { 'main.js': SCRIPT } }),
          });
          if (created.status !== 201 && created.status !== 409)
            throw new Error(`creating the workspace answered ${created.status}: ${await created.text()}`);
          const kernelCall = {
            url: `${kernel.url}/studio/workspaces/${WORKSPACE}/run`,
            body: JSON.stringify({ input: { value: VALUE } }),
          };
          const floorCall = {
            url: `${floor.url}/run`,
            body: JSON.stringify({ script: SCRIPT, input: { value: VALUE } }),
          };
          const check = (await (
            await fetch(kernelCall.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: kernelCall.body,
            })
          ).json()) as { result?: unknown };
          if (JSON.stringify(check.result) !== JSON.stringify(EXPECTED))
            throw new Error(`the run answered ${JSON.stringify(check)}`);
          // GET /health of the same kernel, for scale: what the kernel's pipeline alone costs here, without database, sandbox or audit.
          const healthCall: Call = { url: `${kernel.url}/health` };
          // The audited floor: the same direct evaluation plus the statements the spec requires of a run (revision read, audit insert).
          const auditedFloorCall = { url: `${auditedFloor.url}/run`, body: floorCall.body };
          const [runMedian, floorMedian, auditedFloorMedian, healthMedian] = (await alternating(
            [kernelCall, floorCall, auditedFloorCall, healthCall],
            SAMPLES,
          )) as [number, number, number, number];
          const r = ratio(runMedian, floorMedian);
          const fair = ratio(runMedian, auditedFloorMedian);
          const loadOf = (url: string, body: string, path: string): Promise<Figures> =>
            load(url, { path, method: 'POST', body, connections: CLIENTS, seconds: SECONDS });
          const kernelLoad = await loadOf(kernel.url, kernelCall.body, `/studio/workspaces/${WORKSPACE}/run`);
          const floorLoad = await loadOf(floor.url, floorCall.body, '/run');
          const auditedFloorLoad = await loadOf(auditedFloor.url, floorCall.body, '/run');
          return {
            run_median_ms: runMedian,
            floor_median_ms: floorMedian,
            kernel_health_median_ms: healthMedian,
            ratio_latency: r,
            target_latency_ratio: 1.5,
            meets_target: r <= 1.5,
            audited_floor_median_ms: auditedFloorMedian,
            ratio_latency_audited_floor: fair,
            meets_target_audited_floor: fair <= 1.5,
            runs_per_s_8_clients: kernelLoad.rps,
            run_load: kernelLoad,
            floor_load: floorLoad,
            audited_floor_load: auditedFloorLoad,
            ...service,
          };
        }),
      ),
    );
  },
};
