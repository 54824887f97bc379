import { expect } from 'chai';
import { dropConsoleRoles } from '../../../plugins/sql/roles.js';
import { onPostgres, startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';

const PLUGINS = ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'studio', 'bpmn', 'sql'];
/** Written only into tenant B's rows: no answer to tenant A may contain it. */
const MARKER = 'tenant-b-secret-marker';
/** The tables the console exposes, under their own names. */
const EXPOSED_TABLES = [
  'components',
  'codecs',
  'codecs_revisions',
  'streams_streams',
  'streams_messages',
  'streams_deliveries',
  'streams_consumer_offsets',
  'audit_records',
  'workflows_workflows',
  'workflows_revisions',
  'workflows_runs',
  'studio_workspaces',
  'studio_revisions',
  'bpmn_instances',
  'bpmn_incidents',
];
/** The readable views over them. */
const READABLE_VIEWS = [
  'streams',
  'messages',
  'deliveries',
  'consumer_offsets',
  'codec_revisions',
  'workflows',
  'workflow_revisions',
  'runs',
  'workspaces',
  'workspace_revisions',
  'process_instances',
  'incidents',
  'jobs',
];

/** Rows of every table the console exposes, for `tenant`, each carrying `marker` where it has text. */
async function seed(tk: TestKernel, tenant: string, marker: string): Promise<void> {
  const db = () => tk.kernel.database.knex;
  for (const [path, body] of [
    ['/streams', { id: 'orders', name: `orders ${marker}`, partitions: 2 }],
    [
      '/streams/orders/messages',
      {
        messages: [
          { key: 'k1', value: { note: marker } },
          { key: 'k2', value: { note: marker } },
        ],
      },
    ],
    ['/components', { type: 'passthrough', id: 'c1', name: `component ${marker}` }],
    ['/codecs', { id: 'codec1', name: `codec ${marker}`, kind: 'json' }],
  ] as const) {
    const res = await tk.request('POST', path, { body: { tenant_id: tenant, ...body } });
    expect(res.status, `${path}: ${res.text}`).to.equal(201);
  }
  const message = await db()('streams_messages').where({ tenant_id: tenant }).first('id');
  await db()('streams_deliveries').insert({
    tenant_id: tenant,
    message_id: message.id,
    workflow: 'wf',
    revision: 1,
    run_id: `run-${marker}`,
    attempt: 1,
    status: 'dead',
    error: marker,
    outputs: '[]',
    at: new Date(),
  });
  await db()('streams_consumer_offsets').insert({
    tenant_id: tenant,
    stream_uid: 'x',
    consumer: `consumer-${marker}`,
    partition: 0,
    committed_offset: 1,
    updated_at: new Date(),
  });
  // Tables the workflows and studio plugins contribute (sql.tables).
  const now = new Date();
  await db()('workflows_workflows').insert({
    tenant_id: tenant,
    id: 'wf',
    name: `wf ${marker}`,
    revision: 1,
    state: 'draft',
    created_at: now,
    updated_at: now,
  });
  await db()('workflows_revisions').insert({
    tenant_id: tenant,
    workflow_id: 'wf',
    revision: 1,
    definition: JSON.stringify({ note: marker }),
    created_at: now,
  });
  await db()('workflows_runs').insert({
    tenant_id: tenant,
    id: `run-${marker}`,
    workflow_id: 'wf',
    revision: 1,
    message_id: message.id,
    status: 'dead',
    attempts: 1,
    error: marker,
    started_at: now,
    updated_at: now,
  });
  await db()('studio_workspaces').insert({
    tenant_id: tenant,
    id: 'ws',
    uid: `ws-${marker}`,
    name: `ws ${marker}`,
    revision: 1,
    file_count: 0,
    bytes: 0,
    created_at: now,
    updated_at: now,
  });
  await db()('bpmn_instances').insert({
    tenant_id: tenant,
    id: 'inst',
    definition_key: 'p',
    process_id: 'p',
    version: 1,
    business_key: marker,
    state: 'failed',
    variables: '{}',
    waiting: '[]',
    revision: 1,
    created_at: now,
    updated_at: now,
  });
  await db()('bpmn_incidents').insert({
    tenant_id: tenant,
    id: 'inc',
    instance_id: 'inst',
    message: marker,
    state: 'open',
    created_at: now,
  });
  await db()('bpmn_jobs').insert({
    tenant_id: tenant,
    id: 'job',
    instance_id: 'inst',
    execution_id: 'exec',
    activity_id: 'task',
    type: `job-${marker}`,
    state: 'ready',
    retries: 3,
    due_at: now,
    created_at: now,
  });
  await db()('studio_revisions').insert({
    tenant_id: tenant,
    workspace_id: 'ws',
    revision: 1,
    files: '{}',
    file_count: 0,
    bytes: 0,
    source: marker,
    changed: '[]',
    deleted: '[]',
    created_at: now,
  });
}

describe('sql console: POST /sql/query', function () {
  this.timeout(180_000);

  describe('on the embedded database: each query on a copy cut down to the tenant, in a worker stopped at the deadline', () => {
    if (onPostgres) return;
    const A = 'tenant-a';
    const B = 'tenant-b';
    let tk: TestKernel;
    const db = () => tk.kernel.database.knex;
    const query = (body: Record<string, unknown>, tenant = A): Promise<HttpResult> =>
      tk.request('POST', '/sql/query', { body: { tenant_id: tenant, ...body } });
    before(async () => {
      tk = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } });
      await seed(tk, A, 'tenant-a-visible');
      await seed(tk, B, MARKER);
    });
    after(() => tk?.close());

    it("reads the tenant's own rows of every table and view, and none of another tenant's", async () => {
      const counts = (names: string[], mine: (name: string) => string) =>
        names
          .map(
            (name) =>
              `select '${name}' as name, count(*) filter (where ${mine(name)})::int as mine, count(*) filter (where v::text like '%${MARKER}%')::int as others from ${name} v`,
          )
          .join(' union all ');
      const tables = await query({
        sql: counts(EXPOSED_TABLES, () => `tenant_id = '${A}'`),
      });
      expect(tables.status, tables.text).to.equal(200);
      for (const [name, mine, others] of tables.body.rows) {
        expect(others, name).to.equal(0);
        expect(mine, name).to.be.greaterThan(0);
      }
      const views = await query({ sql: counts(READABLE_VIEWS, () => "v::text like '%tenant-a-visible%'") });
      expect(views.status, views.text).to.equal(200);
      for (const [name, mine, others] of views.body.rows) {
        expect(others, name).to.equal(0);
        expect(mine, name).to.be.greaterThan(0);
      }
      const messages = await query({ sql: "select key, value->>'note' from messages order by key" });
      expect(messages.body.rows).to.deep.equal([
        ['k1', 'tenant-a-visible'],
        ['k2', 'tenant-a-visible'],
      ]);
      const other = await query({ sql: 'select name from streams' }, B);
      expect(other.body.rows).to.deep.equal([[`orders ${MARKER}`]]);
    });

    it('lets no statement reach other tables, the data files, the superuser or the server’s database', async () => {
      for (const sql of [
        'SET ROLE postgres',
        'RESET ROLE',
        `select set_config('role', 'postgres', true), (select count(*) from identity_users)`,
        'select * from kernel_secrets',
        'select * from identity_users',
        "select pg_read_binary_file('PG_VERSION')",
        "select pg_ls_dir('.')",
        'with gone as (delete from components returning *) select * from gone',
        'delete from streams_messages',
        'do $$ begin delete from components; end $$',
        "select current_setting('is_superuser')",
      ]) {
        const res = await query({ sql });
        expect(res.status, `${sql}: ${res.text}`).to.be.oneOf([200, 400, 403]);
        expect(res.text, sql).to.not.include(MARKER);
        if (res.status === 200) expect(res.body.rows, sql).to.deep.equal([['off']]);
      }
      // The server's own database is untouched.
      expect(Number((await db()('components').count({ n: '*' }))[0]?.n)).to.equal(2);
      expect(Number((await db()('streams_messages').count({ n: '*' }))[0]?.n)).to.equal(4);
    });

    it('stops a query past the time limit (pg_sleep(60)) with 422, while the server keeps answering', async () => {
      const started = Date.now();
      const running = query({ sql: 'select pg_sleep(60)' });
      let slowest = 0;
      for (let i = 0; i < 10; i++) {
        const asked = Date.now();
        expect((await tk.request('GET', '/health')).status).to.equal(200);
        slowest = Math.max(slowest, Date.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const res = await running;
      expect(res.status, res.text).to.equal(422);
      expect(res.body.error.code).to.equal('query_timeout');
      expect(Date.now() - started).to.be.below(30_000);
      // The query runs in a thread of its own: the server's thread never waits for it.
      expect(slowest, 'slowest /health while the query ran (ms)').to.be.below(1_000);
    });

    it('caps rows, binds parameters, names a syntax error’s position, runs one query at a time, and audits each', async () => {
      const capped = await query({ sql: 'select g from generate_series(1, 5000) g', limit: 10 });
      expect(capped.body).to.include({ row_count: 10, truncated: true });
      const bound = await query({ sql: 'select $1::int + 1 as answer, $2::text as word', params: [41, 'hi'] });
      expect(bound.body.rows).to.deep.equal([[42, 'hi']]);
      const wrong = await query({ sql: 'select * fro streams_streams' });
      expect(wrong.status, wrong.text).to.equal(400);
      expect(wrong.body.error.message).to.include('at position 10');
      const both = await Promise.all([query({ sql: 'select pg_sleep(1)' }), query({ sql: 'select pg_sleep(1)' })]);
      expect(both.map((r) => r.status).sort()).to.deep.equal([200, 429]);
      expect(both.find((r) => r.status === 429)?.headers.get('retry-after')).to.equal('1');
      const audited = await query({ sql: 'select 7 as audited' });
      const records = await db()('audit_records').where({ request_id: audited.headers.get('x-request-id') });
      expect(records).to.have.length(1);
      expect(JSON.stringify(records[0])).to.include('select 7 as audited');
    });
  });

  describe('on PostgreSQL', () => {
    if (!onPostgres) return;
    const schema = `t_sql_${Math.random().toString(16).slice(2, 10)}`;
    const A = `a-${schema}`;
    const B = `b-${schema}`;
    let tk: TestKernel;
    let second: TestKernel;
    const db = () => tk.kernel.database.knex;
    const query = (body: Record<string, unknown>, tenant = A, kernel = tk): Promise<HttpResult> =>
      kernel.request('POST', '/sql/query', { body: { tenant_id: tenant, ...body } });

    before(async () => {
      tk = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } }, { schema });
      second = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } }, { schema });
      await seed(tk, A, 'tenant-a-visible');
      await seed(tk, B, MARKER);
    });
    after(async () => {
      await second?.close();
      if (tk) {
        await dropConsoleRoles(db(), schema);
        await db().raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        await tk.close();
      }
    });

    it("reads the tenant's own rows of every table, and none of another tenant's", async () => {
      for (const table of EXPOSED_TABLES) {
        const res = await query({
          sql: `select count(*)::int as mine, count(*) filter (where tenant_id <> $1)::int as others from ${table}`,
          params: [A],
        });
        expect(res.status, `${table}: ${res.text}`).to.equal(200);
        const [mine, others] = res.body.rows[0];
        expect(others, table).to.equal(0);
        expect(mine, table).to.be.greaterThan(0);
      }
      const res = await query({ sql: 'select id, name from streams_streams order by id' });
      expect(res.body).to.include({ row_count: 1, truncated: false });
      expect(res.body.columns.map((c: any) => c.name)).to.deep.equal(['id', 'name']);
      // Columns say their type by name, as PostgreSQL writes it, besides the OID.
      const typed = await query({ sql: "select 1::int as i, now() as t, '{}'::jsonb as j, 'x'::bytea as b" });
      expect(typed.body.columns.map((c: any) => c.type)).to.deep.equal([
        'integer',
        'timestamp with time zone',
        'jsonb',
        'bytea',
      ]);
      expect(typed.body.columns[0].type_oid).to.equal(23);
      expect(res.body.rows).to.deep.equal([['orders', 'orders tenant-a-visible']]);
      expect(res.body.duration_ms).to.be.a('number');
      // The other tenant sees its own.
      const other = await query({ sql: 'select name from components' }, B);
      expect(other.body.rows).to.deep.equal([[`component ${MARKER}`]]);
    });

    it("reads the readable views (streams, messages with the decoded value, runs…) under the tenant's policy", async () => {
      for (const view of READABLE_VIEWS) {
        // Views leave the tenant column out: each row is told apart by the marker its tenant wrote.
        const res = await query({
          sql: `select count(*) filter (where v::text like '%' || $1 || '%')::int as others,
                       count(*) filter (where v::text like '%tenant-a-visible%')::int as mine from ${view} v`,
          params: [MARKER],
        });
        expect(res.status, `${view}: ${res.text}`).to.equal(200);
        const [others, mine] = res.body.rows[0];
        expect(others, view).to.equal(0);
        expect(mine, view).to.be.greaterThan(0);
        const columns = await query({ sql: `select * from ${view} limit 0` });
        expect(
          columns.body.columns.map((c: { name: string }) => c.name),
          view,
        ).not.to.include('tenant_id');
      }
      // A JSON message reads as its value (jsonb) and its text, besides the raw bytes.
      const messages = await query({
        sql: "select key, value->>'note' as note, text, value from messages order by key",
      });
      expect(messages.body.rows.map((r: unknown[]) => r.slice(0, 2))).to.deep.equal([
        ['k1', 'tenant-a-visible'],
        ['k2', 'tenant-a-visible'],
      ]);
      expect(JSON.parse(messages.body.rows[0][2])).to.deep.equal({ note: 'tenant-a-visible' });
      expect(messages.body.columns.map((c: { type: string }) => c.type)).to.deep.equal([
        'text',
        'text',
        'text',
        'jsonb',
      ]);
      // The other tenant reads its own through the same views.
      const other = await query({ sql: 'select name from streams' }, B);
      expect(other.body.rows).to.deep.equal([[`orders ${MARKER}`]]);
      // Bytes that are not what the function reads answer NULL rather than failing the query.
      const odd = await query({
        sql: "select sql_console_json('\\xff'::bytea) as j, sql_console_text('\\xff00'::bytea) as t, sql_console_json('[1]'::bytea) as ok",
      });
      expect(odd.status, odd.text).to.equal(200);
      expect(odd.body.rows).to.deep.equal([[null, null, [1]]]);
    });

    it('lets no statement escape the tenant: role changes, settings, writes, chained statements, catalogs and functions', async () => {
      const attempts = [
        'SET ROLE postgres',
        'RESET ROLE',
        'SET SESSION AUTHORIZATION postgres',
        'SET TRANSACTION READ WRITE',
        `select set_config('app.tenant_id', '${B}', false), (select count(*) from streams_streams)`,
        `select set_config('role', 'postgres', true), (select string_agg(name, ',') from streams_streams)`,
        `select 1; delete from streams_streams`,
        `select 1; select * from streams_streams where tenant_id = '${B}'`,
        `insert into streams_streams (tenant_id, id, uid, name, partitions, created_at, updated_at) values ('${A}', 'x', 'x', 'x', 1, now(), now())`,
        `update streams_streams set name = 'changed'`,
        'delete from streams_messages',
        'truncate streams_messages',
        'drop table streams_messages',
        'create table evil (x int)',
        'create temp table evil (x int)',
        'alter table components disable row level security',
        'grant select on kernel_secrets to public',
        `with gone as (delete from components returning *) select * from gone`,
        `copy (select * from streams_messages) to stdout`,
        `do $$ begin delete from components; end $$`,
        `select lo_create(0)`,
        `select pg_read_file('/etc/passwd')`,
        'select * from kernel_secrets',
        'select * from streams_messages_p0',
        'select * from sql_console_roles',
        "select * from pg_stats where tablename like 'streams%' or tablename = 'components'",
        'select query from pg_stat_activity',
        `select * from pg_policies`,
        `select count(*) from streams_streams where tenant_id = '${B}'`,
        `select current_user, session_user, current_setting('is_superuser')`,
        `select convert_from(body, 'UTF8') from streams_messages`,
      ];
      for (const sql of attempts) {
        const res = await query({ sql });
        expect(res.status, `${sql}: ${res.text}`).to.be.oneOf([200, 400, 403]);
        expect(res.text, sql).to.not.include(MARKER);
        // A query that names tenant B may see its own text echoed back, never B's rows.
        if (!sql.includes(B)) expect(res.text, sql).to.not.include(B);
        if (res.status === 200 && /count\(\*\) from streams_streams where/.test(sql))
          expect(res.body.rows).to.deep.equal([['0']]);
      }
      for (const write of [
        'SET ROLE postgres',
        'RESET ROLE',
        'SET TRANSACTION READ WRITE',
        'delete from streams_messages',
        'select 1; delete from streams_streams',
        'drop table streams_messages',
      ]) {
        expect((await query({ sql: write })).status, write).to.equal(400);
      }
      // Whatever a function may do inside the transaction is rolled back with it.
      expect(
        Number(
          (
            await db().raw(
              'select count(*) as n from pg_largeobject_metadata lo join pg_roles r on r.oid = lo.lomowner where r.rolname like ?',
              ['sqlc\\_%'],
            )
          ).rows[0].n,
        ),
      ).to.equal(0);
      expect((await query({ sql: 'select * from kernel_secrets' })).status).to.equal(403);
      const self = await query({ sql: "select r.tenant_id, current_setting('is_superuser') from sql_console_roles r" });
      expect(self.body.rows).to.deep.equal([[A, 'off']]);
      // Nothing was written.
      expect(await db()('streams_streams').where({ tenant_id: A }).pluck('name')).to.deep.equal([
        'orders tenant-a-visible',
      ]);
      expect(Number((await db()('streams_messages').count({ n: '*' }))[0]?.n)).to.equal(4);
      expect(Number((await db()('components').count({ n: '*' }))[0]?.n)).to.equal(2);
    });

    it('answers a syntax error with 400 naming its position in the SQL', async () => {
      const res = await query({ sql: 'select * fro streams_streams' });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.message).to.include('at position 10');
      expect(res.body.error.details[0]).to.include({ in: 'body', pointer: '/sql' });
    });

    it('cancels a query past the time limit (pg_sleep(60)) with a 4xx naming the limit', async () => {
      const started = Date.now();
      const res = await query({ sql: 'select pg_sleep(60)' });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.error.code).to.equal('query_timeout');
      expect(res.body.error.message).to.include('5000 ms');
      expect(Date.now() - started).to.be.below(20_000);
      const still = await db().raw(
        "select count(*)::int as n from pg_stat_activity where application_name = 'sql-console' and query like '%pg_sleep(60)%' and state = 'active'",
      );
      expect(still.rows[0].n).to.equal(0);
    });

    it('caps rows, says truncated, honours a smaller limit and binds parameters', async () => {
      const capped = await query({ sql: 'select g from generate_series(1, 5000) g' });
      expect(capped.body).to.include({ row_count: 1000, truncated: true });
      const limited = await query({ sql: 'select g from generate_series(1, 5000) g', limit: 10 });
      expect(limited.body).to.include({ row_count: 10, truncated: true });
      expect(limited.body.rows[9]).to.deep.equal([10]);
      const exact = await query({ sql: 'select g from generate_series(1, 3) g', limit: 3 });
      expect(exact.body).to.include({ row_count: 3, truncated: false });
      const bound = await query({ sql: 'select $1::int + 1 as answer, $2::text as word', params: [41, 'hi'] });
      expect(bound.body.rows).to.deep.equal([[42, 'hi']]);
    });

    it('records one audit record per query, with the SQL', async () => {
      const res = await query({ sql: 'select 7 as audited' });
      expect(res.status).to.equal(200);
      const records = await db()('audit_records').where({ request_id: res.headers.get('x-request-id') });
      expect(records).to.have.length(1);
      expect(JSON.stringify(records[0])).to.include('select 7 as audited');
    });

    it('refuses exactly one of ceiling + 1 concurrent queries across two instances with 429 and Retry-After, and frees every slot', async () => {
      const sql = 'select pg_sleep(1.5)';
      const results = await Promise.all([0, 1, 2, 3, 4].map((i) => query({ sql }, A, i % 2 === 0 ? tk : second)));
      const refused = results.filter((r) => r.status === 429);
      expect(refused, results.map((r) => r.status).join(',')).to.have.length(1);
      expect(results.filter((r) => r.status === 200)).to.have.length(4);
      expect(refused[0]?.body.error.code).to.equal('too_many_queries');
      expect(refused[0]?.headers.get('retry-after')).to.equal('1');
      expect(Number((await db()('sql_console_slots').count({ n: '*' }))[0]?.n)).to.equal(0);
      // Another tenant has its own ceiling.
      const [b] = await Promise.all([query({ sql: 'select 1' }, B), ...[0, 1, 2, 3].map(() => query({ sql }, A))]);
      expect(b?.status).to.equal(200);
      expect(Number((await db()('sql_console_slots').count({ n: '*' }))[0]?.n)).to.equal(0);
    });
  });
});
