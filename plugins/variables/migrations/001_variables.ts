import type { Migration } from '../../../kernel/types.js';

export const createVariables: Migration = {
  name: '001_variables',
  async up(db) {
    await db.schema.createTable('tenant_variables', (t) => {
      t.text('tenant_id').notNullable();
      t.text('name').notNullable();
      t.text('value').notNullable();
      t.text('description').notNullable().defaultTo('');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'name']);
    });
  },
  async down(db) {
    await db.schema.dropTable('tenant_variables');
  },
};
