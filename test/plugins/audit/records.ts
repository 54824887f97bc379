import type { Knex } from 'knex';
import type { TestKernel } from '../../support/kernel.js';
import { as } from '../../kernel/pipeline/helpers.js';

/** Inserts a record as a writer would, in `db` (an open transaction when the test holds one). */
export async function writeRecord(
  db: Knex | Knex.Transaction,
  tenant: string,
  resource: string,
  writtenAgo = '0 seconds',
): Promise<void> {
  await db.raw(
    `INSERT INTO audit_records (tenant_id, id, at, operation, method, path, resource_id, status, outcome, request_id, actor_type, fields, detail, severity, transport)
     VALUES (?, gen_random_uuid(), now() - ?::interval, 'createNote', 'POST', '/notes', ?, 201, 'success', ?, 'human', '{}', '{}', 'info', 'http')`,
    [tenant, writtenAgo, resource, `req-${resource}`],
  );
}

/** GET /audit/verify for a tenant, as an auditor of that tenant. */
export function verifyTrail(k: TestKernel, tenant: string): ReturnType<TestKernel['request']> {
  return k.request('GET', `/audit/verify?tenant_id=${tenant}`, {
    headers: as('auditor', tenant, ['runtime:audit:read']),
  });
}
