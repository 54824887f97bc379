import { randomBytes } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { createKernel, type Kernel } from '../kernel/boot.js';
import { loadConfig } from '../kernel/config/load.js';
import type { BenchContext, Scenario } from './scenarios.js';

/**
 * `npm run bench runtime` (PostgreSQL): messages/s of a stream → JSON transform → stream workflow
 * against pg-boss 10 doing the same transform per job (a queue → handler → queue), in the same
 * database and run; then the same workflow with a `script` processor (QuickJS sandbox), with
 * its ratio to the no-script run. Both sides start with the same backlog already stored and are
 * timed until every message is through; both use 4 consumers (4 partitions / 4 pg-boss workers)
 * and batches of 100.
 */
const MESSAGES = Number(process.env.BENCH_RUNTIME_MESSAGES ?? 20_000);
const SCRIPT_MESSAGES = Number(process.env.BENCH_RUNTIME_SCRIPT_MESSAGES ?? 2_000);
const CONSUMERS = 4;
const BATCH = Number(process.env.BENCH_RUNTIME_BATCH ?? 100);

const payload = (i: number) => ({ n: i, name: `item ${i}`, tags: ['a', 'b', 'c'], price: i * 1.5, note: randomBytes(40).toString('hex') });
/** The transform both sides do: rename n → number, drop note, set processed. */
const transform = (v: { n: number; note?: string } & Record<string, unknown>) => {
  const { n, note: _note, ...rest } = v;
  return { ...rest, number: n, processed: true };
};
const TRANSFORM_STEP = { type: 'json.transform', config: { omit: ['note'], rename: { n: 'number' }, set: { processed: true } } };
const SCRIPT_STEP = { type: 'script', config: { source: 'const { n, note, ...rest } = service.json.decode(input.body); result = { ...rest, number: n, processed: true };' } };

async function bootKernel(context: BenchContext & { database: { url: string; schema: string } }): Promise<{ kernel: Kernel; url: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.PORT;
  const config = loadConfig({
    profile: 'test',
    env,
    overrides: {
      database: context.database,
      auth: { mode: 'none' },
      plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows'],
      log: { level: 'silent' },
      settings: { workflows: { poll_ms: 50 } },
    },
  });
  const kernel = await createKernel({ config });
  const { url } = await kernel.listen();
  return { kernel, url };
}

async function call(url: string, method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Messages/s of one workflow over a backlog of `count` messages. */
async function workflowRate(url: string, kernel: Kernel, id: string, step: unknown, count: number): Promise<{ messages: number; seconds: number; per_second: number }> {
  await call(url, 'POST', '/streams', { id: `${id}-in`, name: `${id} in`, partitions: CONSUMERS });
  await call(url, 'POST', '/streams', { id: `${id}-out`, name: `${id} out`, partitions: CONSUMERS });
  for (let i = 0; i < count; i += 1000) {
    await call(url, 'POST', `/streams/${id}-in/messages`, { messages: Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({ key: `k${(i + j) % 64}`, value: payload(i + j) })) });
  }
  await call(url, 'POST', '/workflows', { id, name: id, input: { stream: `${id}-in` }, steps: [step], sinks: [{ type: 'stream.publish', config: { stream: `${id}-out` } }], batch_size: BATCH });
  const started = performance.now();
  await call(url, 'POST', `/workflows/${id}/deploy`, { request_id: `bench-${id}` });
  const db = kernel.database.knex;
  for (;;) {
    const [row] = (await db('streams_consumer_offsets').where({ consumer: id }).sum('committed_offset as done')) as Array<{ done: string | number | null }>;
    if (Number(row?.done ?? 0) >= count) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  await call(url, 'POST', `/workflows/${id}/pause`, {});
  const [out] = (await db('streams_messages').where({ stream: `${id}-out` }).count('* as n')) as Array<{ n: string | number }>;
  if (Number(out?.n) !== count) throw new Error(`workflow ${id} wrote ${String(out?.n)} outputs for ${count} inputs`);
  return { messages: count, seconds: Number(seconds.toFixed(3)), per_second: Math.round(count / seconds) };
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Jobs/s of pg-boss 10 over a backlog: CONSUMERS workers, batches of BATCH, each job transformed and sent on to an output queue. */
async function pgBossRate(databaseUrl: string, count: number): Promise<{ messages: number; seconds: number; per_second: number }> {
  const schema = `pgboss_${randomBytes(4).toString('hex')}`;
  const boss = new PgBoss({ connectionString: databaseUrl, schema, max: 10, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    await boss.createQueue('bench-in');
    await boss.createQueue('bench-out');
    for (let i = 0; i < count; i += 1000) {
      await boss.insert(Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({ name: 'bench-in', data: payload(i + j) })));
    }
    let done = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const started = performance.now();
    for (let w = 0; w < CONSUMERS; w++) {
      await boss.work<ReturnType<typeof payload>>('bench-in', { batchSize: BATCH, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        await boss.insert(jobs.map((job) => ({ name: 'bench-out', data: transform(job.data) })));
        done += jobs.length;
        if (done >= count) finish();
      });
    }
    await finished;
    // The last batch is counted when its handler ends; pg-boss completes it right after.
    const seconds = (performance.now() - started) / 1000;
    return { messages: count, seconds: Number(seconds.toFixed(3)), per_second: Math.round(count / seconds) };
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await dropSchema(databaseUrl, schema);
  }
}

export const runtimeScenario: Scenario = {
  name: 'runtime',
  title: `workflow stream → json.transform → stream vs pg-boss 10 doing the same transform per job, ${MESSAGES} messages, same PostgreSQL (target ≥ 2×); the same workflow with a script processor (${SCRIPT_MESSAGES} messages) and its ratio to the no-script run`,
  async run(context) {
    const url = context.database.url;
    if (!url) throw new Error('the runtime bench runs on PostgreSQL: set DATABASE_URL');
    const schema = context.database.schema as string;
    const { kernel, url: base } = await bootKernel({ database: { url, schema } });
    try {
      const baseline = await pgBossRate(url, MESSAGES);
      const workflow = await workflowRate(base, kernel, 'bench-transform', TRANSFORM_STEP, MESSAGES);
      const script = await workflowRate(base, kernel, 'bench-script', SCRIPT_STEP, SCRIPT_MESSAGES);
      const ratio = Number((workflow.per_second / baseline.per_second).toFixed(2));
      return {
        workflow_transform: workflow,
        pg_boss_10: baseline,
        ratio_vs_pg_boss: ratio,
        target_ratio: 2,
        meets_target: ratio >= 2,
        workflow_script: script,
        script_ratio_to_transform: Number((script.per_second / workflow.per_second).toFixed(2)),
        setup: { consumers: CONSUMERS, batch: BATCH, pg_boss_polling_seconds: 0.5 },
      };
    } finally {
      await kernel.close();
      await dropSchema(url, schema);
    }
  },
};
