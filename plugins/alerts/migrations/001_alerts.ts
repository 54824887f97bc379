import type { Migration } from '../../../kernel/types.js';

/**
 * Rules; alerts (one row per rule and series while pending or firing, kept once resolved);
 * silences; and the notification outbox, written in the evaluation's transaction so a
 * notification exists exactly when its state change committed, and sent after it by the one
 * instance holding the evaluation lease.
 */
export const createAlerts: Migration = {
  name: '001_alerts',
  async up(db) {
    await db.schema.createTable('alerts_rules', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('name').notNullable();
      t.text('signal').notNullable();
      t.jsonb('selector').notNullable();
      t.text('op').notNullable();
      t.double('threshold').notNullable();
      t.integer('for_seconds').notNullable();
      t.text('severity').notNullable();
      t.jsonb('labels').notNullable();
      t.jsonb('annotations').notNullable();
      t.jsonb('notify').notNullable();
      t.integer('revision').notNullable().defaultTo(1);
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
    });
    await db.schema.createTable('alerts_alerts', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('rule_id').notNullable();
      t.text('fingerprint').notNullable();
      t.text('state').notNullable();
      t.jsonb('labels').notNullable();
      t.jsonb('annotations').notNullable();
      t.double('value').notNullable();
      t.timestamp('started_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('fired_at', { useTz: true, precision: 3 });
      t.timestamp('resolved_at', { useTz: true, precision: 3 });
      t.timestamp('acked_at', { useTz: true, precision: 3 });
      t.text('acked_by');
      t.boolean('notified').notNullable().defaultTo(false);
      t.boolean('silenced').notNullable().defaultTo(false);
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'state', 'id']);
    });
    // At most one open (pending or firing) alert per rule and series.
    await db.raw(
      "CREATE UNIQUE INDEX alerts_alerts_open ON alerts_alerts (tenant_id, rule_id, fingerprint) WHERE state IN ('pending', 'firing')",
    );
    await db.schema.createTable('alerts_silences', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.jsonb('matchers').notNullable();
      t.timestamp('starts_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('ends_at', { useTz: true, precision: 3 }).notNullable();
      t.text('comment').notNullable();
      t.text('created_by');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'ends_at']);
    });
    await db.schema.createTable('alerts_notifications', (t) => {
      t.bigIncrements('seq');
      t.text('tenant_id').notNullable();
      t.text('alert_id').notNullable();
      t.text('status').notNullable();
      t.text('url').notNullable();
      t.jsonb('payload').notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('next_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('sent_at', { useTz: true, precision: 3 });
      t.text('error');
      t.unique(['tenant_id', 'alert_id', 'status', 'url']);
    });
    await db.raw('CREATE INDEX alerts_notifications_due ON alerts_notifications (next_at) WHERE sent_at IS NULL');
  },
  async down(db) {
    for (const table of ['alerts_notifications', 'alerts_silences', 'alerts_alerts', 'alerts_rules'])
      await db.schema.dropTableIfExists(table);
  },
};
