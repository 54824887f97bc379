import type { Migration } from '../../../kernel/types.js';

/**
 * Jobs: a service, send or business-rule task waiting for an external worker (Camunda external
 * tasks, Zeebe job workers). One row per waiting execution; a worker's lock is the row's
 * worker_id and lock_expires_at (by the database's clock, the one all kernels share). User tasks
 * gain what the model assigns them (candidates, due date, form); instances started by a call
 * activity know their parent.
 */
export const createJobs: Migration = {
  name: '003_jobs',
  async up(db) {
    const ts = { useTz: true, precision: 3 } as const;
    await db.schema.createTable('bpmn_jobs', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('instance_id').notNullable();
      t.text('execution_id').notNullable();
      t.text('activity_id').notNullable();
      t.text('type').notNullable();
      /** open (fetchable once due and unlocked), completed, failed (retries exhausted: an incident), cancelled. */
      t.text('state').notNullable();
      t.integer('retries').notNullable();
      t.text('worker_id');
      t.timestamp('lock_expires_at', ts);
      /** Not fetched before (a failure's backoff). */
      t.timestamp('due_at', ts).notNullable();
      t.text('error_message');
      t.timestamp('created_at', ts).notNullable();
      t.timestamp('ended_at', ts);
      t.primary(['tenant_id', 'id']);
      t.unique(['tenant_id', 'instance_id', 'execution_id']);
      t.index(['tenant_id', 'type', 'state', 'due_at']);
    });
    // A call activity's child instance: the parent it answers when it ends.
    await db.schema.alterTable('bpmn_instances', (t) => {
      t.text('parent_id');
      t.text('parent_execution_id');
    });
    await db.schema.alterTable('bpmn_tasks', (t) => {
      t.specificType('candidate_users', 'text[]');
      t.specificType('candidate_groups', 'text[]');
      t.timestamp('due_at', ts);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('bpmn_jobs');
    await db.schema.alterTable('bpmn_instances', (t) => {
      t.dropColumn('parent_id');
      t.dropColumn('parent_execution_id');
    });
    await db.schema.alterTable('bpmn_tasks', (t) => {
      t.dropColumn('candidate_users');
      t.dropColumn('candidate_groups');
      t.dropColumn('due_at');
    });
  },
};
