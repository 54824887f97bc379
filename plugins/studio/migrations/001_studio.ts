import type { Migration } from '../../../kernel/types.js';

/**
 * Workspaces, their immutable file revisions (each a whole snapshot, so any revision reads in
 * one row), and the collaborative documents' append-only Yjs update logs.
 */
export const createStudio: Migration = {
  name: '001_studio',
  async up(db) {
    await db.schema.createTable('studio_workspaces', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      /** Differs between a deleted workspace and one re-created under its id (keys the file cache). */
      t.text('uid').notNullable();
      t.text('name').notNullable();
      t.text('description').notNullable().defaultTo('');
      t.integer('revision').notNullable();
      t.integer('file_count').notNullable();
      t.integer('bytes').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
    });
    await db.schema.createTable('studio_revisions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workspace_id').notNullable();
      t.integer('revision').notNullable();
      t.jsonb('files').notNullable();
      t.integer('file_count').notNullable();
      t.integer('bytes').notNullable();
      t.text('source').notNullable();
      t.jsonb('changed').notNullable();
      t.jsonb('deleted').notNullable();
      t.text('created_by');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workspace_id', 'revision']);
    });
    await db.schema.createTable('studio_collab_docs', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workspace_id').notNullable();
      /** The file revision the document was seeded from or last saved as / took in. */
      t.integer('revision').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workspace_id']);
    });
    await db.schema.createTable('studio_collab_updates', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workspace_id').notNullable();
      t.specificType('seq', 'bigserial').notNullable();
      t.binary('data').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workspace_id', 'seq']);
    });
  },
  async down(db) {
    await db.schema.dropTable('studio_collab_updates');
    await db.schema.dropTable('studio_collab_docs');
    await db.schema.dropTable('studio_revisions');
    await db.schema.dropTable('studio_workspaces');
  },
};
