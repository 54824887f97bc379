import type { Migration } from '../../../kernel/types.js';

export const createComponents: Migration = {
  name: '001_components',
  async up(db) {
    await db.schema.createTable('components', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('name').notNullable();
      t.text('description').notNullable().defaultTo('');
      t.text('state').notNullable().defaultTo('stopped');
      t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
      t.jsonb('config').notNullable().defaultTo('{}');
      t.integer('revision').notNullable().defaultTo(1);
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'state', 'id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('components');
  },
};
