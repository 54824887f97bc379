import type { Migration } from '../../../kernel/types.js';

/**
 * Workflows with their immutable revisions, the runs (one message processed by one revision),
 * and each partition's retry state (the message that failed and when to try it again).
 */
export const createWorkflows: Migration = {
  name: '001_workflows',
  async up(db) {
    await db.schema.createTable('workflows_workflows', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('name').notNullable();
      /** The latest revision (the ETag). */
      t.integer('revision').notNullable();
      /** The revision the workers run; null until the first deploy. */
      t.integer('deployed_revision');
      /** draft (never deployed), running, paused. */
      t.text('state').notNullable();
      /** The input stream of the deployed revision (the workers' keys are read by it). */
      t.text('input_stream');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['state']);
    });
    await db.schema.createTable('workflows_revisions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workflow_id').notNullable();
      t.integer('revision').notNullable();
      t.jsonb('definition').notNullable();
      t.text('created_by');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workflow_id', 'revision']);
    });
    await db.schema.createTable('workflows_runs', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('workflow_id').notNullable();
      t.integer('revision').notNullable();
      t.text('message_id').notNullable();
      /** pending, processed, failed (will retry), dead. */
      t.text('status').notNullable();
      t.integer('attempts').notNullable();
      t.text('error');
      t.jsonb('outputs').notNullable().defaultTo('[]');
      t.text('replay_of');
      t.timestamp('started_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'workflow_id', 'status']);
    });
    await db.schema.createTable('workflows_retries', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workflow_id').notNullable();
      t.integer('partition').notNullable();
      /** The offset of the message that failed; the partition waits on it (order is kept). */
      t.bigInteger('offset').notNullable();
      t.integer('attempts').notNullable();
      /** The run the attempts belong to, and its revision (a deploy in between starts a new run). */
      t.text('run_id').notNullable();
      t.integer('revision').notNullable();
      t.timestamp('retry_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workflow_id', 'partition']);
    });
  },
  async down(db) {
    for (const table of ['workflows_retries', 'workflows_runs', 'workflows_revisions', 'workflows_workflows'])
      await db.schema.dropTableIfExists(table);
  },
};
