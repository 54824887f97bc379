import type { Migration } from '../../../kernel/types.js';

/** Codecs and the history of their versions: each change keeps the revision it replaced. */
export const createCodecs: Migration = {
  name: '001_codecs',
  async up(db) {
    await db.schema.createTable('codecs', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('name').notNullable();
      t.text('kind').notNullable();
      // JSON null for a kind that takes no schema; jsonb holds the avro schema's string form too.
      t.jsonb('schema');
      t.integer('revision').notNullable().defaultTo(1);
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
    });
    await db.schema.createTable('codecs_revisions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('codec_id').notNullable();
      t.integer('revision').notNullable();
      t.text('name').notNullable();
      t.text('kind').notNullable();
      t.jsonb('schema');
      // Set when a PUT with ?force=true kept a change that broke compatibility: what broke.
      t.jsonb('forced_problems');
      t.text('changed_by');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'codec_id', 'revision']);
    });
  },
  async down(db) {
    await db.schema.dropTable('codecs_revisions');
    await db.schema.dropTable('codecs');
  },
};
