import { expect } from 'chai';
import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import type { Manifest, RouteDecl } from '../../../kernel/manifest/types.js';
import type { Call, Handler, PluginDefinition } from '../../../kernel/types.js';
import type { KernelEvent } from '../../../kernel/events/types.js';
import { onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { waitFor } from '../../support/relay.js';

const TOPIC = 'tallies.marked';

const params = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } } };
const markRoute: RouteDecl = {
  operation: 'markTally', method: 'POST', path: '/tallies/{id}/marks', permission: 'test:tally:write', category: 'test', read_only: false,
  summary: 'Adds a mark to a tally', params, idempotency: 'idempotency_key',
  body: { type: 'object', required: ['mark'], additionalProperties: false, properties: { mark: { type: 'string', maxLength: 40 } } },
  response: { status: 201 }, audit: { class: 'change' },
};
const createRoute: RouteDecl = {
  operation: 'createTally', method: 'POST', path: '/tallies', permission: 'test:tally:write', category: 'test', read_only: false,
  summary: 'Creates a tally', body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } } },
  response: { status: 201 }, audit: { class: 'change' },
};

/** A mark is appended without reading anything first: the kind of write a combined statement is for. */
function tallies(): PluginDefinition {
  let events: { publishIn(write: NonNullable<Call['write']>, topic: string, payload: unknown): Promise<void> } | undefined;
  const markTally: Handler = Object.assign(
    async (call: Call) => {
      const id = String(call.params.id);
      const mark = (call.body as { mark: string }).mark;
      const tenant = call.tenantId as string;
      const insert = `INSERT INTO tally_marks (tenant_id, tally_id, mark) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tallies WHERE tenant_id = ? AND id = ?)
                      ON CONFLICT DO NOTHING RETURNING mark`;
      const bindings = [tenant, id, mark, tenant, id];
      if (call.write) {
        // Required: a missing tally (or a mark it has already) writes nothing at all, the audit record and event included.
        const missing = (await call.db('tallies').where({ tenant_id: tenant, id }).first()) === undefined;
        call.write.add('tally_marks', insert, bindings, { required: missing ? new ApiError('not_found', `No tally "${id}".`) : new ApiError('conflict', `Tally "${id}" has mark "${mark}" already.`) });
        await events?.publishIn(call.write, TOPIC, { id, mark });
      } else {
        const inserted = (await call.db.raw(insert, bindings)) as { rows: unknown[] };
        if (inserted.rows.length === 0) throw new ApiError('not_found', `No tally "${id}" (or the mark is there).`);
      }
      return { status: 201, body: { id, mark } };
    },
    { combinedWrite: () => true },
  );
  const manifest: Manifest = {
    id: 'tallies', version: '1.0.0', summary: 'Tallies and their marks, for the combined-write tests',
    requires: { services: ['events'] },
    permissions: [{ name: 'test:tally:write', description: 'Mark tallies.' }],
    routes: [createRoute, markRoute],
  };
  return {
    id: 'tallies',
    manifest,
    migrations: [{
      name: '001_tallies',
      async up(db: Knex) {
        await db.raw('CREATE TABLE tallies (tenant_id text NOT NULL, id text NOT NULL, PRIMARY KEY (tenant_id, id))');
        await db.raw('CREATE TABLE tally_marks (tenant_id text NOT NULL, tally_id text NOT NULL, mark text NOT NULL, PRIMARY KEY (tenant_id, tally_id, mark))');
      },
    }],
    setup: (context) => {
      events = (context.services as { events?: typeof events }).events;
      return {
        handlers: {
          async createTally(call: Call) {
            const id = (call.body as { id: string }).id;
            await call.db('tallies').insert({ tenant_id: call.tenantId, id });
            return { status: 201, body: { id } };
          },
          markTally,
        },
      };
    },
  } as PluginDefinition;
}

/**
 * A handler whose effect is a few writes without reads in between asks for a combined write: its
 * writes, its events and the call's audit record go to the database as ONE statement — no BEGIN,
 * no COMMIT — and commit all together or not at all.
 */
describe('pipeline: a combined write', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let statements: string[] = [];
  const got: KernelEvent[] = [];
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit'], auth: { mode: 'none' } }, { plugins: [tallies()] });
    tk.kernel.database.knex.on('query', (q: { sql: string }) => statements.push(q.sql));
    tk.kernel.services.events.subscribe(TOPIC, (event) => {
      got.push(event);
    });
    expect((await tk.request('POST', '/tallies', { body: { id: 'apples' } })).status).to.equal(201);
  });
  after(() => tk?.close());
  const db = () => tk.kernel.database.knex;
  const marks = async () => ((await db()('tally_marks').orderBy('mark')) as Array<{ mark: string }>).map((m) => m.mark);
  const records = async (status: number) => (await db()('audit_records').where({ operation: 'markTally', status })).length;

  /** The statements one call sent, once the sealer's own are left out. */
  async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
    statements = [];
    const res = await tk.request('POST', path, { body, headers });
    const sent = statements.filter((sql) => !/audit_seals|audit_heads|audit_clock|pg_snapshot_xmin/.test(sql));
    return { res, sent };
  }

  it('commits the handler\'s write, its event and the audit record in one statement, without a transaction around it', async () => {
    const { res, sent } = await call('/tallies/apples/marks', { mark: 'first' });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ id: 'apples', mark: 'first' });
    expect(await marks()).to.deep.equal(['first']);
    expect(await records(201)).to.equal(1);
    // The call's transaction would be knex's plain BEGIN (the sealer's runs read committed).
    expect(sent.filter((sql) => /^\s*BEGIN;/i.test(sql)), 'no transaction').to.deep.equal([]);
    const writes = sent.filter((sql) => /INSERT/i.test(sql));
    expect(writes).to.have.length(1);
    expect(writes[0]).to.match(/INSERT INTO tally_marks/).and.to.match(/INSERT INTO audit_records/).and.to.match(/INSERT INTO kernel_events/);
    expect(await waitFor(async () => got.length === 1, 10_000)).to.equal(true);
    expect(got[0]?.payload).to.deep.equal({ id: 'apples', mark: 'first' });
  });

  it('writes nothing when a required part finds nothing — no effect, no event — answers that part\'s error, and still audits the refusal once', async () => {
    const eventsBefore = got.length;
    const missing = await call('/tallies/pears/marks', { mark: 'first' });
    expect(missing.res.status).to.equal(404);
    expect((missing.res.body as { error: { code: string } }).error.code).to.equal('not_found');
    const again = await call('/tallies/apples/marks', { mark: 'first' });
    expect(again.res.status).to.equal(409);
    expect((again.res.body as { error: { code: string } }).error.code).to.equal('conflict');
    expect(await marks()).to.deep.equal(['first']);
    expect(await records(404)).to.equal(1);
    expect(await records(409)).to.equal(1);
    // The refusals' events were part of the statements that did not commit.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.length).to.equal(eventsBefore);
    expect(Number((await db()('kernel_events').where({ topic: TOPIC }).count({ n: '*' }).first())?.n)).to.equal(1);
  });

  it('groups concurrent calls into fewer statements on the embedded database, each call keeping its own outcome', async () => {
    statements = [];
    const calls = Array.from({ length: 24 }, (_, i) => tk.request('POST', i === 7 ? '/tallies/plums/marks' : '/tallies/apples/marks', { body: { mark: `burst-${i}` } }));
    const statuses = (await Promise.all(calls)).map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).to.have.length(23);
    expect(statuses[7]).to.equal(404);
    const stored = await marks();
    expect(stored.filter((m) => m.startsWith('burst-'))).to.have.length(23);
    expect(stored).to.not.include('burst-7');
    expect(await records(404)).to.equal(2);
    const combined = statements.filter((sql) => /INSERT INTO tally_marks/.test(sql)).length;
    // On a server each call sends its own statement; the embedded database's one connection groups
    // the calls that arrive while a statement runs (a group that fails is sent again one by one).
    if (onPostgres) expect(combined).to.equal(24);
    else expect(combined).to.be.below(24);
  });

  it('runs a dry run and a call with an idempotency key in a transaction as before (the key is claimed in it)', async () => {
    const dry = await call('/tallies/apples/marks?dry_run=true', { mark: 'dry' });
    expect(dry.res.status).to.equal(200);
    expect(dry.sent.some((sql) => /^\s*BEGIN;/i.test(sql))).to.equal(true);
    expect(await marks()).to.not.include('dry');
    const keyed = await call('/tallies/apples/marks', { mark: 'keyed' }, { 'Idempotency-Key': 'k-1' });
    expect(keyed.res.status).to.equal(201);
    expect(keyed.sent.some((sql) => /^\s*BEGIN;/i.test(sql))).to.equal(true);
    const replayed = await call('/tallies/apples/marks', { mark: 'keyed' }, { 'Idempotency-Key': 'k-1' });
    expect(replayed.res.status).to.equal(201);
    expect(replayed.res.headers.get('idempotent-replayed')).to.equal('true');
    expect((await marks()).filter((m) => !m.startsWith('burst-'))).to.deep.equal(['first', 'keyed']);
  });
});
