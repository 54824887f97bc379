import type { Migration } from '../../../kernel/types.js';

/**
 * Which tenant each console login role is bound to (the row-level security policies read it
 * through `session_user`, which a query cannot change), and the per-tenant query slots: a lease
 * table, so the ceiling holds across instances and a crashed instance's slot lapses on its own.
 */
export const createSqlConsole: Migration = {
  name: '001_sql_console',
  async up(db) {
    await db.schema.createTable('sql_console_roles', (t) => {
      t.text('role_name').primary();
      t.text('tenant_id').notNullable().unique();
    });
    await db.schema.createTable('sql_console_slots', (t) => {
      t.text('tenant_id').notNullable();
      t.integer('slot').notNullable();
      t.text('holder').notNullable();
      t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'slot']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('sql_console_slots');
    await db.schema.dropTableIfExists('sql_console_roles');
  },
};
