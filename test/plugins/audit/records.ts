import type { Knex } from 'knex';

/** Inserts a record as a writer would, in `db` (an open transaction when the test holds one). */
export async function writeRecord(db: Knex | Knex.Transaction, tenant: string, resource: string, writtenAgo = '0 seconds'): Promise<void> {
  await db.raw(
    `INSERT INTO audit_records (tenant_id, id, at, operation, method, path, resource_id, status, outcome, request_id, actor_type, fields, detail, severity, transport)
     VALUES (?, gen_random_uuid(), now() - ?::interval, 'createNote', 'POST', '/notes', ?, 201, 'success', ?, 'human', '{}', '{}', 'info', 'http')`,
    [tenant, writtenAgo, resource, `req-${resource}`],
  );
}
