import type { Migration } from '../../../kernel/types.js';

/** Plans: the bundle, the diff against the target and the target's fingerprint when planned (drift is a change of it). */
export const createMigration: Migration = {
  name: '001_migration',
  async up(db) {
    await db.schema.createTable('migration_plans', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('target_tenant_id').notNullable();
      t.jsonb('bundle').notNullable();
      t.jsonb('diff').notNullable();
      t.jsonb('gate').notNullable();
      t.text('target_fingerprint').notNullable();
      t.text('created_by');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('applied_at', { useTz: true, precision: 3 });
      t.text('applied_request_id');
      t.primary(['tenant_id', 'id']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('migration_plans');
  },
};
