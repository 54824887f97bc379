import type { Migration } from '../../../kernel/types.js';

export const createLogs: Migration = {
  name: '001_logs',
  async up(db) {
    await db.schema.createTable('runtime_logs', (t) => {
      t.text('tenant_id').notNullable();
      // From one sequence for all tenants: a later insert always gets a larger seq, so the
      // keyset cursor (seq) is stable under concurrent writes.
      t.bigIncrements('seq', { primaryKey: false });
      t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
      t.text('level').notNullable();
      t.text('source').notNullable();
      t.text('message').notNullable();
      t.jsonb('fields').notNullable().defaultTo('{}');
      t.primary(['tenant_id', 'seq']);
      t.index(['tenant_id', 'source', 'seq']);
    });
  },
  async down(db) {
    await db.schema.dropTable('runtime_logs');
  },
};
