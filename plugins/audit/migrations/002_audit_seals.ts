import type { Migration } from '../../../kernel/types.js';

/**
 * Moves the hash chain out of the write path. Until now a record was chained as it was written,
 * under its tenant's head row lock, which serialised every write of a tenant until its commit.
 * From here on a record is written unchained, stamped by the database with the id of the transaction that
 * writes it (`xact`); the sealer chains committed records shortly after, in (xact, id) order,
 * into audit_seals (one row per record: its chain position, predecessor hash and hash). Both
 * tables are append-only, enforced by the database. Existing chains move over unchanged, with
 * negative xact values that keep their order and sort before every real transaction id.
 */
export const sealAudit: Migration = {
  name: '002_audit_seals',
  async up(db) {
    await db.raw('ALTER TABLE audit_records DISABLE TRIGGER audit_records_no_change');
    await db.raw('ALTER TABLE audit_records ADD COLUMN xact bigint');
    await db.raw('UPDATE audit_records SET xact = seq - (SELECT coalesce(max(seq), 0) FROM audit_records) - 1');
    await db.raw('ALTER TABLE audit_records ALTER COLUMN xact SET NOT NULL');

    // Transaction ids restart when a trail is restored from a logical dump into another server;
    // the offset keeps every new record's xact above those already sealed (see the sealer's start).
    await db.schema.createTable('audit_clock', (t) => {
      t.boolean('id').primary().defaultTo(true);
      t.bigInteger('xact_offset').notNullable().defaultTo(0);
    });
    await db.raw('ALTER TABLE audit_clock ADD CONSTRAINT audit_clock_one_row CHECK (id)');
    await db.raw('INSERT INTO audit_clock (id, xact_offset) VALUES (true, 0)');
    // The database stamps xact itself, whatever the writer sends: order is not the writer's to choose.
    await db.raw(`
      CREATE FUNCTION audit_records_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.xact := pg_current_xact_id()::text::bigint + (SELECT xact_offset FROM audit_clock);
        RETURN NEW;
      END
      $$`);
    await db.raw(
      'CREATE TRIGGER audit_records_stamp BEFORE INSERT ON audit_records FOR EACH ROW EXECUTE FUNCTION audit_records_stamp()',
    );

    await db.schema.createTable('audit_seals', (t) => {
      t.text('tenant_id').notNullable();
      t.bigInteger('xact').notNullable();
      t.uuid('record_id').notNullable();
      t.bigInteger('seq').notNullable();
      t.text('prev_hash').notNullable();
      t.text('hash').notNullable();
      // Chain order is record order: the verifier walks records and seals together by this key.
      t.primary(['tenant_id', 'xact', 'record_id']);
    });
    await db.raw(
      'INSERT INTO audit_seals (tenant_id, xact, record_id, seq, prev_hash, hash) SELECT tenant_id, xact, id, seq, prev_hash, hash FROM audit_records',
    );

    await db.raw('ALTER TABLE audit_heads ADD COLUMN last_xact bigint, ADD COLUMN last_id uuid');
    await db.raw(
      `UPDATE audit_heads h SET last_xact = s.xact, last_id = s.record_id FROM audit_seals s WHERE s.tenant_id = h.tenant_id AND s.seq = h.seq`,
    );

    await db.schema.alterTable('audit_records', (t) => {
      t.dropPrimary();
      t.dropIndex(['tenant_id', 'operation', 'seq']);
      t.dropIndex(['tenant_id', 'resource_id', 'seq']);
      t.dropIndex(['tenant_id', 'subject_id', 'seq']);
    });
    await db.schema.alterTable('audit_records', (t) => {
      t.dropColumns('seq', 'prev_hash', 'hash');
      t.primary(['tenant_id', 'xact', 'id']);
      t.index(['tenant_id', 'operation', 'xact']);
      t.index(['tenant_id', 'resource_id', 'xact']);
      t.index(['tenant_id', 'subject_id', 'xact']);
    });
    await db.raw('ALTER TABLE audit_records ENABLE TRIGGER audit_records_no_change');

    // A head only moves forward: moving it back would hide sealed records from verification.
    await db.raw(`
      CREATE FUNCTION audit_heads_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR NEW.seq < OLD.seq OR NEW.tenant_id <> OLD.tenant_id THEN
          RAISE EXCEPTION 'audit heads only move forward: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
      END
      $$`);
    await db.raw(
      'CREATE TRIGGER audit_heads_forward BEFORE UPDATE OR DELETE ON audit_heads FOR EACH ROW EXECUTE FUNCTION audit_heads_forward_only()',
    );
    await db.raw(
      'CREATE TRIGGER audit_seals_no_change BEFORE UPDATE OR DELETE ON audit_seals FOR EACH ROW EXECUTE FUNCTION audit_records_append_only()',
    );
    await db.raw(
      'CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals FOR EACH STATEMENT EXECUTE FUNCTION audit_records_append_only()',
    );
  },
};
