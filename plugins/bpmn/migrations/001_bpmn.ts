import type { Migration } from '../../../kernel/types.js';

/**
 * Definitions (versioned per process id), instances with the engine's saved state, and what an
 * instance waits for (user tasks, message and signal subscriptions, due timers) as rows, so any
 * kernel can find and advance it. History and snapshots are append-only: a replay reads them and
 * never changes them.
 */
export const createBpmn: Migration = {
  name: '001_bpmn',
  async up(db) {
    const ts = { useTz: true, precision: 3 } as const;
    await db.schema.createTable('bpmn_definitions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('key').notNullable();
      t.text('process_id').notNullable();
      t.integer('version').notNullable();
      t.text('name');
      t.text('xml_hash').notNullable();
      t.text('xml').notNullable();
      t.jsonb('meta').notNullable();
      t.timestamp('created_at', ts).notNullable();
      t.primary(['tenant_id', 'key']);
      t.unique(['tenant_id', 'process_id', 'version']);
      t.unique(['tenant_id', 'process_id', 'xml_hash']);
    });
    await db.schema.createTable('bpmn_instances', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('definition_key').notNullable();
      t.text('process_id').notNullable();
      t.integer('version').notNullable();
      t.text('business_key');
      t.text('state').notNullable();
      t.jsonb('variables').notNullable();
      /** What it waits for (as the wait rows say), so the next advance changes only the rows that change. */
      t.jsonb('waiting').notNullable();
      /** The snapshot holding the engine state to resume from (null before the first one). */
      t.integer('state_revision');
      /** Grows at every advance: an in-memory engine is reused only when it saw this revision. */
      t.integer('revision').notNullable();
      t.text('replay_of');
      t.text('replay_from');
      t.timestamp('created_at', ts).notNullable();
      t.timestamp('updated_at', ts).notNullable();
      t.timestamp('ended_at', ts);
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'state', 'id']);
      t.index(['tenant_id', 'process_id', 'id']);
      t.index(['tenant_id', 'business_key', 'id']);
    });
    await db.schema.createTable('bpmn_tasks', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('instance_id').notNullable();
      t.text('activity_id').notNullable();
      t.text('execution_id').notNullable();
      t.text('name');
      t.text('state').notNullable();
      t.text('assignee');
      t.jsonb('variables');
      t.timestamp('created_at', ts).notNullable();
      t.timestamp('completed_at', ts);
      t.primary(['tenant_id', 'id']);
      t.unique(['tenant_id', 'instance_id', 'execution_id']);
      t.index(['tenant_id', 'state', 'id']);
    });
    await db.schema.createTable('bpmn_subscriptions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('instance_id').notNullable();
      t.text('kind').notNullable();
      t.text('name').notNullable();
      t.text('ref').notNullable();
      t.text('correlation_key');
      t.text('activity_id').notNullable();
      t.primary(['tenant_id', 'instance_id', 'kind', 'ref', 'activity_id']);
      t.index(['tenant_id', 'kind', 'name', 'correlation_key']);
    });
    await db.schema.createTable('bpmn_timers', (t) => {
      t.text('tenant_id').notNullable();
      t.text('instance_id').notNullable();
      t.text('execution_id').notNullable();
      t.text('activity_id').notNullable();
      t.timestamp('due_at', ts).notNullable();
      t.primary(['tenant_id', 'instance_id', 'execution_id']);
      t.index(['tenant_id', 'due_at']);
    });
    await db.schema.createTable('bpmn_history', (t) => {
      t.text('tenant_id').notNullable();
      t.text('instance_id').notNullable();
      t.text('execution_id').notNullable();
      t.text('activity_id').notNullable();
      t.text('activity_type').notNullable();
      t.text('name');
      t.bigInteger('seq').notNullable();
      t.timestamp('started_at', ts).notNullable();
      t.timestamp('ended_at', ts);
      t.text('outcome');
      t.jsonb('variables');
      t.primary(['tenant_id', 'instance_id', 'execution_id']);
    });
    await db.schema.createTable('bpmn_snapshots', (t) => {
      t.text('tenant_id').notNullable();
      t.text('instance_id').notNullable();
      t.integer('revision').notNullable();
      t.specificType('waiting', 'text[]').notNullable();
      t.jsonb('variables').notNullable();
      t.jsonb('engine_state').notNullable();
      t.timestamp('created_at', ts).notNullable();
      t.primary(['tenant_id', 'instance_id', 'revision']);
    });
    await db.schema.createTable('bpmn_incidents', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('instance_id').notNullable();
      t.text('activity_id');
      t.text('message').notNullable();
      t.text('state').notNullable();
      t.timestamp('created_at', ts).notNullable();
      t.timestamp('resolved_at', ts);
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'instance_id']);
      t.index(['tenant_id', 'state', 'id']);
    });
  },
  async down(db) {
    for (const table of [
      'bpmn_incidents',
      'bpmn_snapshots',
      'bpmn_history',
      'bpmn_timers',
      'bpmn_subscriptions',
      'bpmn_tasks',
      'bpmn_instances',
      'bpmn_definitions',
    ])
      await db.schema.dropTableIfExists(table);
  },
};
