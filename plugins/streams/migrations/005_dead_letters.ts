import type { Migration } from '../../../kernel/types.js';

/**
 * The open dead letters, one row per (message, workflow) whose latest delivery is dead and that no
 * replay has superseded yet. The dashboard and the alerts plugin's dead-letter depth read it as one
 * index range per tenant instead of proving "latest attempt, not replayed" for every dead delivery.
 * Kept in the transactions that change the answer: recording deliveries (a death adds the row, a
 * later attempt of the message removes it), publishing a replay of the message (removes every
 * workflow's row) and retention deleting the message.
 *
 * Deliveries also keep their message's publish time, so the dashboard's end-to-end latency over a
 * window reads the window's deliveries alone; rows written before this column read it from the
 * message.
 */
export const createDeadLetters: Migration = {
  name: '005_dead_letters',
  async up(db) {
    await db.schema.createTable('streams_dead_letters', (t) => {
      t.text('tenant_id').notNullable();
      t.text('workflow').notNullable();
      t.text('message_id').notNullable();
      t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'workflow', 'message_id']);
    });
    // Where publishing a replay or deleting a message finds the message's rows (any workflow).
    await db.raw('CREATE INDEX streams_dead_letters_message ON streams_dead_letters (tenant_id, message_id)');
    await db.raw(
      `INSERT INTO streams_dead_letters (tenant_id, workflow, message_id, at)
       SELECT d.tenant_id, d.workflow, d.message_id, d.at FROM streams_deliveries d
        WHERE d.status = 'dead'
          AND d.attempt = (SELECT max(d2.attempt) FROM streams_deliveries d2 WHERE d2.tenant_id = d.tenant_id AND d2.message_id = d.message_id AND d2.workflow = d.workflow)
          AND NOT EXISTS (SELECT 1 FROM streams_messages r WHERE r.tenant_id = d.tenant_id AND r.replay_of = d.message_id)
          AND NOT EXISTS (SELECT 1 FROM streams_message_index r WHERE r.tenant_id = d.tenant_id AND r.replay_of = d.message_id)`,
    );
    await db.raw('ALTER TABLE streams_deliveries ADD COLUMN published_at timestamptz(3)');
  },
  async down(db) {
    await db.raw('ALTER TABLE streams_deliveries DROP COLUMN published_at');
    await db.schema.dropTableIfExists('streams_dead_letters');
  },
};
