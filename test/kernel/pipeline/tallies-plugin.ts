import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { RunInTransaction } from '../../../kernel/db/combined-write.js';
import type { Manifest, RouteDecl } from '../../../kernel/manifest/types.js';
import type { Call, Handler, PluginDefinition } from '../../../kernel/types.js';

/** A test plugin for the combined-write tests: tallies, and marks appended to them. */
export const TOPIC = 'tallies.marked';

const params = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } },
};
const markRoute: RouteDecl = {
  operation: 'markTally',
  method: 'POST',
  path: '/tallies/{id}/marks',
  permission: 'test:tally:write',
  category: 'test',
  read_only: false,
  summary: 'Adds a mark to a tally',
  params,
  idempotency: 'idempotency_key',
  body: {
    type: 'object',
    required: ['mark'],
    additionalProperties: false,
    properties: { mark: { type: 'string', maxLength: 40 } },
  },
  response: { status: 201 },
  audit: { class: 'change' },
};
const createRoute: RouteDecl = {
  operation: 'createTally',
  method: 'POST',
  path: '/tallies',
  permission: 'test:tally:write',
  category: 'test',
  read_only: false,
  summary: 'Creates a tally',
  body: {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } },
  },
  response: { status: 201 },
  audit: { class: 'change' },
};

/** A mark is appended without reading anything first: the kind of write a combined statement is for. */
export function tallies(): PluginDefinition {
  let events:
    | { publishIn(write: NonNullable<Call['write']>, topic: string, payload: unknown): Promise<void> }
    | undefined;
  const markTally: Handler = Object.assign(
    async (call: Call) => {
      const id = String(call.params.id);
      const mark = (call.body as { mark: string }).mark;
      const tenant = call.tenantId as string;
      const insert = `INSERT INTO tally_marks (tenant_id, tally_id, mark) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tallies WHERE tenant_id = ? AND id = ?)
                      ON CONFLICT DO NOTHING RETURNING mark`;
      const bindings = [tenant, id, mark, tenant, id];
      // A `tx-` mark needs a transaction after all: the handler says so, and runs again in one.
      if (call.write && mark.startsWith('tx-')) throw new RunInTransaction();
      if (call.write && mark.startsWith('guard-')) {
        // Taken without looking: a missing tally sends the call to a transaction, which answers it.
        call.write.add('tally_marks', insert, bindings, { guard: true, orTransaction: true });
      } else if (call.write) {
        // Required: a missing tally (or a mark it has already) writes nothing at all, the audit record and event included.
        const missing = (await call.db('tallies').where({ tenant_id: tenant, id }).first()) === undefined;
        call.write.add('tally_marks', insert, bindings, {
          required: missing
            ? new ApiError('not_found', `No tally "${id}".`)
            : new ApiError('conflict', `Tally "${id}" has mark "${mark}" already.`),
        });
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
    id: 'tallies',
    version: '1.0.0',
    summary: 'Tallies and their marks, for the combined-write tests',
    requires: { services: ['events'] },
    permissions: [{ name: 'test:tally:write', description: 'Mark tallies.' }],
    routes: [createRoute, markRoute],
  };
  return {
    id: 'tallies',
    manifest,
    migrations: [
      {
        name: '001_tallies',
        async up(db: Knex) {
          await db.raw('CREATE TABLE tallies (tenant_id text NOT NULL, id text NOT NULL, PRIMARY KEY (tenant_id, id))');
          await db.raw(
            'CREATE TABLE tally_marks (tenant_id text NOT NULL, tally_id text NOT NULL, mark text NOT NULL, PRIMARY KEY (tenant_id, tally_id, mark))',
          );
        },
      },
    ],
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
