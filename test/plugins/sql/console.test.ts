import { expect } from 'chai';
import { dropConsoleRoles } from '../../../plugins/sql/roles.js';
import { onPostgres, startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';

const PLUGINS = ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows', 'studio', 'bpmn', 'sql'];
/** Written only into tenant B's rows: no answer to tenant A may contain it. */
const MARKER = 'tenant-b-secret-marker';

describe('sql console: POST /sql/query', function () {
  this.timeout(180_000);

  describe('on the embedded database', () => {
    if (onPostgres) return;
    let tk: TestKernel;
    before(async () => {
      tk = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } });
    });
    after(() => tk?.close());

    it('answers 501 not_configured saying why, rather than a weaker console', async () => {
      const res = await tk.request('POST', '/sql/query', { body: { sql: 'select 1' } });
      expect(res.status, res.text).to.equal(501);
      expect(res.body.error.code).to.equal('not_configured');
      expect(res.body.error.details[0].message).to.match(/needs PostgreSQL/);
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
    const query = (body: Record<string, unknown>, tenant = A, kernel = tk): Promise<HttpResult> => kernel.request('POST', '/sql/query', { body: { tenant_id: tenant, ...body } });

    async function seed(tenant: string, marker: string): Promise<void> {
      for (const [path, body] of [
        ['/streams', { id: 'orders', name: `orders ${marker}`, partitions: 2 }],
        ['/streams/orders/messages', { messages: [{ key: 'k1', value: { note: marker } }, { key: 'k2', value: { note: marker } }] }],
        ['/components', { type: 'passthrough', id: 'c1', name: `component ${marker}` }],
        ['/codecs', { id: 'codec1', name: `codec ${marker}`, kind: 'json' }],
      ] as const) {
        const res = await tk.request('POST', path, { body: { tenant_id: tenant, ...body } });
        expect(res.status, `${path}: ${res.text}`).to.equal(201);
      }
      const message = await db()('streams_messages').where({ tenant_id: tenant }).first('id');
      await db()('streams_deliveries').insert({ tenant_id: tenant, message_id: message.id, workflow: 'wf', revision: 1, run_id: `run-${marker}`, attempt: 1, status: 'dead', error: marker, outputs: '[]', at: new Date() });
      await db()('streams_consumer_offsets').insert({ tenant_id: tenant, stream_uid: 'x', consumer: `consumer-${marker}`, partition: 0, committed_offset: 1, updated_at: new Date() });
      // Tables the workflows and studio plugins contribute (sql.tables).
      const now = new Date();
      await db()('workflows_workflows').insert({ tenant_id: tenant, id: 'wf', name: `wf ${marker}`, revision: 1, state: 'draft', created_at: now, updated_at: now });
      await db()('workflows_revisions').insert({ tenant_id: tenant, workflow_id: 'wf', revision: 1, definition: JSON.stringify({ note: marker }), created_at: now });
      await db()('workflows_runs').insert({ tenant_id: tenant, id: `run-${marker}`, workflow_id: 'wf', revision: 1, message_id: message.id, status: 'dead', attempts: 1, error: marker, started_at: now, updated_at: now });
      await db()('studio_workspaces').insert({ tenant_id: tenant, id: 'ws', uid: `ws-${marker}`, name: `ws ${marker}`, revision: 1, file_count: 0, bytes: 0, created_at: now, updated_at: now });
      await db()('bpmn_instances').insert({ tenant_id: tenant, id: 'inst', definition_key: 'p', process_id: 'p', version: 1, business_key: marker, state: 'failed', variables: '{}', waiting: '[]', revision: 1, created_at: now, updated_at: now });
      await db()('bpmn_incidents').insert({ tenant_id: tenant, id: 'inc', instance_id: 'inst', message: marker, state: 'open', created_at: now });
      await db()('studio_revisions').insert({ tenant_id: tenant, workspace_id: 'ws', revision: 1, files: '{}', file_count: 0, bytes: 0, source: marker, changed: '[]', deleted: '[]', created_at: now });
    }

    before(async () => {
      tk = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } }, { schema });
      second = await startKernel({ plugins: PLUGINS, auth: { mode: 'none' } }, { schema });
      await seed(A, 'tenant-a-visible');
      await seed(B, MARKER);
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
      for (const table of ['components', 'codecs', 'codecs_revisions', 'streams_streams', 'streams_messages', 'streams_deliveries', 'streams_consumer_offsets', 'audit_records', 'workflows_workflows', 'workflows_revisions', 'workflows_runs', 'studio_workspaces', 'studio_revisions', 'bpmn_instances', 'bpmn_incidents']) {
        const res = await query({ sql: `select count(*)::int as mine, count(*) filter (where tenant_id <> $1)::int as others from ${table}`, params: [A] });
        expect(res.status, `${table}: ${res.text}`).to.equal(200);
        const [mine, others] = res.body.rows[0];
        expect(others, table).to.equal(0);
        expect(mine, table).to.be.greaterThan(0);
      }
      const res = await query({ sql: 'select id, name from streams_streams order by id' });
      expect(res.body).to.include({ row_count: 1, truncated: false });
      expect(res.body.columns.map((c: any) => c.name)).to.deep.equal(['id', 'name']);
      expect(res.body.rows).to.deep.equal([['orders', 'orders tenant-a-visible']]);
      expect(res.body.duration_ms).to.be.a('number');
      // The other tenant sees its own.
      const other = await query({ sql: 'select name from components' }, B);
      expect(other.body.rows).to.deep.equal([[`component ${MARKER}`]]);
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
        'select * from pg_stats where tablename like \'streams%\' or tablename = \'components\'',
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
        if (res.status === 200 && /count\(\*\) from streams_streams where/.test(sql)) expect(res.body.rows).to.deep.equal([['0']]);
      }
      for (const write of ['SET ROLE postgres', 'RESET ROLE', 'SET TRANSACTION READ WRITE', 'delete from streams_messages', 'select 1; delete from streams_streams', 'drop table streams_messages']) {
        expect((await query({ sql: write })).status, write).to.equal(400);
      }
      // Whatever a function may do inside the transaction is rolled back with it.
      expect(Number((await db().raw('select count(*) as n from pg_largeobject_metadata lo join pg_roles r on r.oid = lo.lomowner where r.rolname like ?', ['sqlc\\_%'])).rows[0].n)).to.equal(0);
      expect((await query({ sql: 'select * from kernel_secrets' })).status).to.equal(403);
      const self = await query({ sql: 'select r.tenant_id, current_setting(\'is_superuser\') from sql_console_roles r' });
      expect(self.body.rows).to.deep.equal([[A, 'off']]);
      // Nothing was written.
      expect(await db()('streams_streams').where({ tenant_id: A }).pluck('name')).to.deep.equal(['orders tenant-a-visible']);
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
      const still = await db().raw("select count(*)::int as n from pg_stat_activity where application_name = 'sql-console' and query like '%pg_sleep(60)%' and state = 'active'");
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
