import type { Migration } from '../../../kernel/types.js';

/**
 * The audit trail. Append-only is enforced by the database itself: a trigger refuses UPDATE,
 * DELETE and TRUNCATE of audit_records, whatever the application does. audit_heads holds each
 * tenant's chain head (last seq and hash); its row lock serialises a tenant's appends.
 */
export const createAudit: Migration = {
  name: '001_audit',
  async up(db) {
    await db.schema.createTable('audit_records', (t) => {
      t.text('tenant_id').notNullable();
      t.bigInteger('seq').notNullable();
      t.uuid('id').notNullable();
      t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
      t.text('operation').notNullable();
      t.text('method').notNullable();
      t.text('path').notNullable();
      t.text('resource_id');
      t.integer('status').notNullable();
      t.text('outcome').notNullable();
      t.text('error_code');
      t.text('request_id').notNullable();
      t.text('idempotency_key');
      t.text('subject_id');
      t.text('credential_kind');
      t.text('credential_id');
      t.text('actor_type').notNullable();
      t.text('agent_id');
      t.text('actor_id');
      t.text('actor_email');
      t.jsonb('fields').notNullable();
      t.jsonb('detail').notNullable();
      t.text('severity').notNullable();
      t.text('transport').notNullable();
      t.text('prev_hash').notNullable();
      t.text('hash').notNullable();
      t.primary(['tenant_id', 'seq']);
      t.index(['tenant_id', 'operation', 'seq']);
      t.index(['tenant_id', 'resource_id', 'seq']);
      t.index(['tenant_id', 'subject_id', 'seq']);
    });
    await db.schema.createTable('audit_heads', (t) => {
      t.text('tenant_id').primary();
      t.bigInteger('seq').notNullable();
      t.text('hash').notNullable();
    });
    await db.raw(`
      CREATE FUNCTION audit_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit records are append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await db.raw(
      'CREATE TRIGGER audit_records_no_change BEFORE UPDATE OR DELETE ON audit_records FOR EACH ROW EXECUTE FUNCTION audit_records_append_only()',
    );
    await db.raw(
      'CREATE TRIGGER audit_records_no_truncate BEFORE TRUNCATE ON audit_records FOR EACH STATEMENT EXECUTE FUNCTION audit_records_append_only()',
    );
  },
};
