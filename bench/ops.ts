import knexFactory from 'knex';
import { pairedLatency, ratio, startTarget } from './harness.js';
import type { BenchContext, Scenario } from './scenarios.js';

const SAMPLES = 100;
/** Messages spread over the last 30 days, as a long-running deployment has them. */
const SPAN_SECONDS = 30 * 86_400;

/**
 * Seeds one tenant directly with generate_series: a stream of 8 partitions holding `messages`
 * messages published over the last 30 days, one delivery per message to one of `workflows`
 * workflows (one in a thousand dead, each an open dead letter), and each workflow's consumer
 * offsets a little behind.
 */
export async function seedTenant(
  knex: knexFactory.Knex,
  tenant: string,
  messages: number,
  workflows: number,
): Promise<void> {
  const uid = `${tenant}-in`;
  const step = SPAN_SECONDS / messages;
  await knex.raw(
    `INSERT INTO streams_streams (tenant_id, id, uid, name, partitions, revision, created_at, updated_at) VALUES (?, 'in', ?, 'in', 8, 1, now(), now())`,
    [tenant, uid],
  );
  await knex.raw(
    `INSERT INTO streams_partitions (tenant_id, stream_uid, partition, next_offset) SELECT ?, ?, p, ceil((?::int - p)::numeric / 8) FROM generate_series(0, 7) p`,
    [tenant, uid, messages],
  );
  await knex.raw(
    `INSERT INTO streams_messages (tenant_id, stream_uid, partition, "offset", id, stream, key, headers, content_type, body, size, published_at)
     SELECT ?, ?, g % 8, g / 8, 'msg_' || lpad(g::text, 27, '0'), 'in', NULL, '{}', 'application/json', '\\x7b7d'::bytea, 2, now() - make_interval(secs => (?::bigint - g) * ?::float8)
       FROM generate_series(0, ?::int - 1) g`,
    [tenant, uid, messages, step, messages],
  );
  await knex.raw(
    `INSERT INTO streams_deliveries (tenant_id, message_id, workflow, revision, run_id, attempt, status, error, outputs, at, published_at)
     SELECT ?, 'msg_' || lpad(g::text, 27, '0'), 'wf-' || (g % ?::int), 1, 'run-' || g, 1, CASE WHEN g % 1000 = 999 THEN 'dead' ELSE 'processed' END, NULL, '[]',
            published_at + interval '40 milliseconds', published_at
       FROM generate_series(0, ?::int - 1) g, LATERAL (SELECT now() - make_interval(secs => (?::bigint - g) * ?::float8) AS published_at) p`,
    [tenant, workflows, messages, messages, step],
  );
  // The open dead letters, as the worker opens one with each dead delivery (none was redriven).
  await knex.raw(
    `INSERT INTO streams_dead_letters (tenant_id, workflow, message_id, at) SELECT tenant_id, workflow, message_id, at FROM streams_deliveries WHERE tenant_id = ? AND status = 'dead'`,
    [tenant],
  );
  await knex.raw(
    `INSERT INTO streams_consumer_offsets (tenant_id, stream_uid, consumer, partition, committed_offset, updated_at)
     SELECT ?, ?, 'wf-' || w, p.partition, greatest(p.next_offset - 10, 0), now() FROM generate_series(0, ?::int - 1) w CROSS JOIN streams_partitions p WHERE p.tenant_id = ? AND p.stream_uid = ?`,
    [tenant, uid, workflows, tenant, uid],
  );
  // The workflows plugin's hourly counters, as its worker would have added them batch by batch
  // (every latency is 40 ms: the 25–50 ms bin, the 4th).
  await knex.raw(
    `INSERT INTO workflows_hourly (tenant_id, hour, workflow_id, messages_in, attempts, processed, errors, dead, latency_hist)
     SELECT ?, date_trunc('hour', d.at), d.workflow, count(*), count(*),
            count(*) FILTER (WHERE d.status = 'processed'), count(*) FILTER (WHERE d.status = 'dead'), count(*) FILTER (WHERE d.status = 'dead'),
            array[0, 0, 0, count(*) FILTER (WHERE d.status = 'processed'), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::integer[]
       FROM streams_deliveries d WHERE d.tenant_id = ? GROUP BY 2, 3`,
    [tenant, tenant],
  );
  await knex.raw(
    `INSERT INTO components (tenant_id, id, name, state, created_at, updated_at) SELECT ?, 'c-' || g, 'c-' || g, CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'running' END, now(), now() FROM generate_series(1, 50) g`,
    [tenant],
  );
}

/**
 * GET /dashboard for a tenant with 1,000,000 messages and 100 workflows against a tenant with
 * 1,000 messages (10 workflows), both in the same database, alternating requests in the same run,
 * for each window. Median latency; the dashboard passes when the big tenant is at most 2× the small
 * one in every window.
 */
export const opsScenario: Scenario = {
  name: 'ops',
  title: 'GET /dashboard: 1,000,000 messages + 100 workflows vs 1,000 messages (≤ 2× latency)',
  async run(context: BenchContext) {
    const database = context.database as { url?: string; schema?: string };
    if (!database.url || !database.schema)
      return { skipped: 'needs DATABASE_URL (seeds a million rows with generate_series on PostgreSQL)' };
    const env = {
      BENCH_OVERRIDES: JSON.stringify({
        plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'alerts', 'dashboard'],
        auth: { mode: 'none' },
        log: { level: 'warn' },
        database,
        settings: { alerts: { evaluation_interval_ms: 3_600_000 } },
      }),
    };
    const target = await startTarget('kernel', env);
    const knex = knexFactory({
      client: 'pg',
      connection: database.url,
      searchPath: [database.schema],
      pool: { min: 0, max: 2 },
    });
    try {
      const seeding = Date.now();
      await seedTenant(knex, 'big', 1_000_000, 100);
      await seedTenant(knex, 'small', 1_000, 10);
      await knex.raw('ANALYZE');
      const seedSeconds = Math.round((Date.now() - seeding) / 100) / 10;
      const figures: Record<string, unknown> = { seed_seconds: seedSeconds };
      // 24h reads the workflows plugin's hourly counters (bounded rows), 5m and 1h the deliveries in the window.
      for (const window of ['24h', '1h', '5m']) {
        const { a: big, b: small } = await pairedLatency(
          target.url,
          { path: `/dashboard?tenant_id=big&window=${window}` },
          { path: `/dashboard?tenant_id=small&window=${window}` },
          SAMPLES,
        );
        figures[`window_${window}_big_ms`] = big;
        figures[`window_${window}_small_ms`] = small;
        figures[`window_${window}_ratio`] = ratio(big, small);
      }
      figures.ratio = Math.max(...['24h', '1h', '5m'].map((w) => figures[`window_${w}_ratio`] as number));
      figures.pass = (figures.ratio as number) <= 2;
      return figures;
    } finally {
      await knex.destroy();
      await target.stop();
      const cleanup = knexFactory({ client: 'pg', connection: database.url });
      await cleanup.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [database.schema]).catch(() => undefined);
      await cleanup.destroy();
    }
  },
};
