import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { connectDatabase } from '../../kernel/db/connect.js';
import { claimKey, saveResponse, TABLE as KEYS } from '../../kernel/idempotency/store.js';
import type { RecordContent } from '../../plugins/audit/chain.js';
import { insertRecord, recordInsert } from '../../plugins/audit/store.js';
import { ComponentStore } from '../../plugins/components/store.js';
import { findTokenByHash } from '../../plugins/identity/store/api-tokens.js';
import { hashSecret } from '../../plugins/identity/tokens/format.js';
import { serveJsonPost } from './serve.js';

/**
 * The floor under an audited, idempotent create: hand-written handlers that make the request's
 * own writes, with no pipeline around them. They show how close any implementation could come
 * to a bare INSERT on this machine, and they flatter it: no sealer runs beside them (the
 * kernel's chains the records after commit, more writes on the same database).
 * - `statements`: the kernel's own statements, one round trip each, as the kernel issues them:
 *   token lookup, BEGIN, key claim, INSERT, key save, audit record, COMMIT.
 * - `fused`: the three writes (effect, key, audit record) fused into one statement, one round
 *   trip, no token lookup and no claim: less than any correct implementation must do.
 */
const database = JSON.parse(process.env.BENCH_DATABASE ?? '{}') as { url?: string; data_dir?: string; schema?: string };
const db = (await connectDatabase({ pool_max: 10, ready_timeout_ms: 1000, ...database })).knex;
const variant = process.env.BENCH_FLOOR === 'fused' ? 'fused' : 'statements';
const DAY_MS = 86_400_000;

interface Created {
  id: string;
  name: string;
  idempotency_key: string;
}

function auditContent(body: Created, subjectId: string, at: Date): RecordContent {
  return {
    tenant_id: 'default',
    id: randomUUID(),
    at: at.toISOString(),
    operation: 'createComponent',
    method: 'POST',
    path: '/components',
    resource_id: body.id,
    status: 201,
    outcome: 'success',
    error_code: null,
    request_id: randomUUID(),
    idempotency_key: body.idempotency_key,
    subject_id: subjectId,
    credential_kind: 'api_token',
    credential_id: subjectId,
    actor_type: 'human',
    agent_id: null,
    actor_id: null,
    actor_email: null,
    fields: {},
    detail: {},
    severity: 'info',
    transport: 'http',
  };
}

async function statements(secret: string, body: Created, now: Date): Promise<unknown> {
  const token = await findTokenByHash(db, hashSecret(secret));
  if (!token) return undefined;
  const scope = { tenantId: 'default', subjectId: token.id, operation: 'createComponent', key: body.idempotency_key };
  return db.transaction(async (trx) => {
    const claim = await claimKey(trx, scope);
    if (!claim.locked || claim.stored) throw new Error('the key was taken');
    const component = await new ComponentStore(trx).insert(
      'default',
      body.id,
      { name: body.name, type: 'passthrough', stream: null, config: {}, secrets: null, secret_fields: [] },
      now,
    );
    await saveResponse(
      trx,
      scope,
      'fingerprint',
      { status: 201, body: component },
      now,
      new Date(now.getTime() + DAY_MS),
    );
    await insertRecord(trx, auditContent(body, token.id, now));
    return component;
  });
}

async function fused(body: Created, now: Date): Promise<unknown> {
  const audit = recordInsert(auditContent(body, 'floor', now));
  const result = await db.raw(
    `WITH c AS (INSERT INTO components (tenant_id, id, name, type, state_since, created_at, updated_at) VALUES ('default', ?, ?, 'passthrough', ?, ?, ?) RETURNING *),
          k AS (INSERT INTO ${KEYS} (tenant_id, subject_id, operation, key, fingerprint, status, headers, body, created_at, expires_at)
                SELECT c.tenant_id, 'floor', 'createComponent', ?, 'fingerprint', 201, '{}'::jsonb, row_to_json(c)::text, c.created_at, ? FROM c),
          a AS (${audit.sql})
     SELECT * FROM c`,
    [
      body.id,
      body.name,
      now,
      now,
      now,
      body.idempotency_key,
      new Date(now.getTime() + DAY_MS),
      ...audit.bindings,
    ] as Knex.RawBinding[],
  );
  return (result.rows as unknown[])[0];
}

serveJsonPost('/components', async (parsed, ctx) => {
  const body = parsed as Created;
  const now = new Date();
  const secret = ctx.get('authorization').replace(/^Bearer /, '');
  const created = variant === 'fused' ? await fused(body, now) : await statements(secret, body, now);
  return { status: created === undefined ? 401 : 201, body: created ?? null };
});
