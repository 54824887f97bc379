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
 * and batches of 100. The target ratio is against pg-boss's standard consumer (`boss.work`,
 * polling at its least interval, 0.5 s); pg-boss's fetch loop without the sleep and a bare SQL loop
 * writing the workflow's rows are reported beside it, so the figure can be read against both the
 * queue's ceiling and the database's.
 */
const MESSAGES = Number(process.env.BENCH_RUNTIME_MESSAGES ?? 20_000);
const SCRIPT_MESSAGES = Number(process.env.BENCH_RUNTIME_SCRIPT_MESSAGES ?? 2_000);
const CONSUMERS = 4;
const BATCH = Number(process.env.BENCH_RUNTIME_BATCH ?? 100);

const payload = (i: number) => ({
  n: i,
  name: `item ${i}`,
  tags: ['a', 'b', 'c'],
  price: i * 1.5,
  note: randomBytes(40).toString('hex'),
});
/** The transform both sides do: rename n → number, drop note, set processed. */
const transform = (v: { n: number; note?: string } & Record<string, unknown>) => {
  const { n, note: _note, ...rest } = v;
  return { ...rest, number: n, processed: true };
};
const TRANSFORM_STEP = {
  type: 'json.transform',
  config: { omit: ['note'], rename: { n: 'number' }, set: { processed: true } },
};
const SCRIPT_STEP = {
  type: 'script',
  config: {
    source:
      'const { n, note, ...rest } = service.json.decode(input.body); result = { ...rest, number: n, processed: true };',
  },
};

async function bootKernel(
  context: BenchContext & { database: { url: string; schema: string } },
): Promise<{ kernel: Kernel; url: string }> {
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
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Messages/s of one workflow over a backlog of `count` messages. */
async function workflowRate(
  url: string,
  kernel: Kernel,
  id: string,
  step: unknown,
  count: number,
): Promise<{ messages: number; seconds: number; per_second: number }> {
  await call(url, 'POST', '/streams', { id: `${id}-in`, name: `${id} in`, partitions: CONSUMERS });
  await call(url, 'POST', '/streams', { id: `${id}-out`, name: `${id} out`, partitions: CONSUMERS });
  for (let i = 0; i < count; i += 1000) {
    await call(url, 'POST', `/streams/${id}-in/messages`, {
      messages: Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
        key: `k${(i + j) % 64}`,
        value: payload(i + j),
      })),
    });
  }
  await call(url, 'POST', '/workflows', {
    id,
    name: id,
    input: { stream: `${id}-in` },
    steps: [step],
    sinks: [{ type: 'stream.publish', config: { stream: `${id}-out` } }],
    batch_size: BATCH,
  });
  const started = performance.now();
  await call(url, 'POST', `/workflows/${id}/deploy`, { request_id: `bench-${id}` });
  const db = kernel.database.knex;
  for (;;) {
    const [row] = (await db('streams_consumer_offsets')
      .where({ consumer: id })
      .sum('committed_offset as done')) as Array<{ done: string | number | null }>;
    if (Number(row?.done ?? 0) >= count) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  await call(url, 'POST', `/workflows/${id}/pause`, {});
  const [out] = (await db('streams_messages')
    .where({ stream: `${id}-out` })
    .count('* as n')) as Array<{ n: string | number }>;
  if (Number(out?.n) !== count) throw new Error(`workflow ${id} wrote ${String(out?.n)} outputs for ${count} inputs`);
  return { messages: count, seconds: Number(seconds.toFixed(3)), per_second: Math.round(count / seconds) };
}

/**
 * The floor on this database: the rows a workflow batch writes, by a bare SQL loop with no
 * framework: per partition, read 100 messages of the workflow's input stream, then one
 * transaction of one multi-row INSERT each for the outputs (streams_messages), the deliveries and
 * the runs, and the offset upsert. No lease fence, offset counter row, event or conditional
 * commit: what the workflow does beyond this is what exactly-once and wake-ups cost.
 */
async function floorRate(
  databaseUrl: string,
  schema: string,
  inputStream: string,
  count: number,
): Promise<{ messages: number; seconds: number; per_second: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONSUMERS, options: `-c search_path="${schema}"` });
  try {
    const {
      rows: [input],
    } = await pool.query<{ tenant_id: string; uid: string }>(
      'SELECT tenant_id, uid FROM streams_streams WHERE id = $1',
      [inputStream],
    );
    if (!input) throw new Error(`no stream ${inputStream}`);
    const outUid = `floor-${randomBytes(4).toString('hex')}`;
    const started = performance.now();
    const consumer = async (partition: number): Promise<number> => {
      let offset = 0;
      let done = 0;
      for (;;) {
        const { rows } = await pool.query<{ id: string; key: string; headers: unknown; body: Buffer }>(
          'SELECT id, key, headers, body FROM streams_messages WHERE tenant_id = $1 AND stream_uid = $2 AND partition = $3 AND "offset" >= $4 ORDER BY "offset" LIMIT $5',
          [input.tenant_id, input.uid, partition, offset, BATCH],
        );
        if (rows.length === 0) return done;
        const now = new Date().toISOString();
        const outputs = rows.map((r, i) => {
          const value = transform(JSON.parse(r.body.toString('utf8')) as ReturnType<typeof payload>);
          return {
            id: `fo_${r.id}`,
            offset: offset + i,
            key: r.key,
            headers: { 'x-workflow-source': r.id },
            body: Buffer.from(JSON.stringify(value)).toString('base64'),
          };
        });
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO streams_messages (tenant_id, stream_uid, partition, "offset", id, stream, key, headers, content_type, body, size, published_at)
             SELECT $1, $2, $3, v.o, v.id, 'floor-out', v.key, v.headers, 'application/json', decode(v.body, 'base64'), octet_length(decode(v.body, 'base64')), $4
               FROM jsonb_to_recordset($5::jsonb) AS v(o bigint, id text, key text, headers jsonb, body text)`,
            [
              input.tenant_id,
              outUid,
              partition,
              now,
              JSON.stringify(
                outputs.map((o) => ({ o: o.offset, id: o.id, key: o.key, headers: o.headers, body: o.body })),
              ),
            ],
          );
          await client.query(
            `INSERT INTO streams_deliveries (tenant_id, message_id, workflow, revision, run_id, attempt, status, error, outputs, at)
             SELECT $1, v.m, 'floor', 1, v.r, 1, 'processed', NULL, jsonb_build_array(v.o), $2 FROM jsonb_to_recordset($3::jsonb) AS v(m text, r text, o text)`,
            [
              input.tenant_id,
              now,
              JSON.stringify(rows.map((r, i) => ({ m: r.id, r: `fr_${r.id}`, o: outputs[i]?.id }))),
            ],
          );
          await client.query(
            `INSERT INTO workflows_runs (tenant_id, id, workflow_id, revision, message_id, status, attempts, error, outputs, started_at, updated_at)
             SELECT $1, v.r, 'floor', 1, v.m, 'processed', 1, NULL, jsonb_build_array(v.o), $2, $2 FROM jsonb_to_recordset($3::jsonb) AS v(m text, r text, o text)`,
            [
              input.tenant_id,
              now,
              JSON.stringify(rows.map((r, i) => ({ m: r.id, r: `fr_${r.id}`, o: outputs[i]?.id }))),
            ],
          );
          offset += rows.length;
          await client.query(
            `INSERT INTO streams_consumer_offsets (tenant_id, stream_uid, consumer, partition, committed_offset, updated_at) VALUES ($1, $2, 'floor', $3, $4, $5)
             ON CONFLICT (tenant_id, stream_uid, consumer, partition) DO UPDATE SET committed_offset = excluded.committed_offset, updated_at = excluded.updated_at`,
            [input.tenant_id, input.uid, partition, offset, now],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
        done += rows.length;
      }
    };
    const counts = await Promise.all(Array.from({ length: CONSUMERS }, (_, p) => consumer(p)));
    const seconds = (performance.now() - started) / 1000;
    const total = counts.reduce((a, b) => a + b, 0);
    if (total !== count) throw new Error(`the floor loop read ${total} messages for ${count}`);
    return { messages: count, seconds: Number(seconds.toFixed(3)), per_second: Math.round(count / seconds) };
  } finally {
    await pool.end();
  }
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

/**
 * Jobs/s of pg-boss 10 over a backlog: CONSUMERS workers, batches of BATCH, each job transformed
 * and sent on to an output queue (one multi-row insert per batch), then completed. `work`: its
 * standard consumer (`boss.work`), which sleeps between fetches for the polling interval less the
 * batch's time (0.5 s is the least pg-boss 10 accepts); `fetch`: the same steps in a loop of
 * `fetch` → `insert` → `complete` with no sleep, pg-boss's ceiling on this database.
 */
async function pgBossRate(
  databaseUrl: string,
  count: number,
  mode: 'work' | 'fetch',
): Promise<{ messages: number; seconds: number; per_second: number }> {
  const schema = `pgboss_${randomBytes(4).toString('hex')}`;
  const boss = new PgBoss({ connectionString: databaseUrl, schema, max: 10, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    await boss.createQueue('bench-in');
    await boss.createQueue('bench-out');
    for (let i = 0; i < count; i += 1000) {
      await boss.insert(
        Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({ name: 'bench-in', data: payload(i + j) })),
      );
    }
    let done = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const started = performance.now();
    if (mode === 'fetch') {
      const consumer = async (): Promise<void> => {
        for (;;) {
          const jobs = await boss.fetch<ReturnType<typeof payload>>('bench-in', { batchSize: BATCH });
          if (!jobs || jobs.length === 0) return;
          await boss.insert(jobs.map((job) => ({ name: 'bench-out', data: transform(job.data) })));
          await boss.complete(
            'bench-in',
            jobs.map((job) => job.id),
          );
        }
      };
      await Promise.all(Array.from({ length: CONSUMERS }, consumer));
      const seconds = (performance.now() - started) / 1000;
      return { messages: count, seconds: Number(seconds.toFixed(3)), per_second: Math.round(count / seconds) };
    }
    for (let w = 0; w < CONSUMERS; w++) {
      await boss.work<ReturnType<typeof payload>>(
        'bench-in',
        { batchSize: BATCH, pollingIntervalSeconds: 0.5 },
        async (jobs) => {
          await boss.insert(jobs.map((job) => ({ name: 'bench-out', data: transform(job.data) })));
          done += jobs.length;
          if (done >= count) finish();
        },
      );
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
      const baseline = await pgBossRate(url, MESSAGES, 'work');
      const ceiling = await pgBossRate(url, MESSAGES, 'fetch');
      const workflow = await workflowRate(base, kernel, 'bench-transform', TRANSFORM_STEP, MESSAGES);
      const floor = await floorRate(url, schema, 'bench-transform-in', MESSAGES);
      const script = await workflowRate(base, kernel, 'bench-script', SCRIPT_STEP, SCRIPT_MESSAGES);
      const ratio = Number((workflow.per_second / baseline.per_second).toFixed(2));
      return {
        workflow_transform: workflow,
        pg_boss_10: baseline,
        ratio_vs_pg_boss: ratio,
        pg_boss_10_fetch_loop: ceiling,
        ratio_vs_pg_boss_fetch_loop: Number((workflow.per_second / ceiling.per_second).toFixed(2)),
        target_ratio: 2,
        meets_target: ratio >= 2,
        bare_sql_loop: floor,
        workflow_ratio_to_bare_sql_loop: Number((workflow.per_second / floor.per_second).toFixed(2)),
        bare_sql_loop_ratio_vs_pg_boss: Number((floor.per_second / baseline.per_second).toFixed(2)),
        workflow_script: script,
        script_ratio_to_transform: Number((script.per_second / workflow.per_second).toFixed(2)),
        setup: { consumers: CONSUMERS, batch: BATCH, pg_boss_polling_seconds: 0.5 },
        per_message: {
          workflow:
            'reads the input row; JSON decode, transform, encode; writes an output message row, a delivery row and a run row; per batch: lease fence, partition counter, one event row, conditional offset commit, all in one transaction',
          pg_boss:
            'fetch marks the job active (UPDATE), handler transforms and inserts an output job (one INSERT per batch), complete marks it completed (UPDATE); three transactions per batch',
          bare_sql_loop:
            'reads the input row; transform; writes an output message row, a delivery row and a run row and the offset, one transaction per batch, nothing else',
        },
      };
    } finally {
      await kernel.close();
      await dropSchema(url, schema);
    }
  },
};
