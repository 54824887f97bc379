import type { Migration } from '../../../kernel/types.js';

/**
 * Per (tenant, workflow, hour) counters the worker adds to in the transaction that records a
 * batch's deliveries, so the dashboard's day reads at most 25 rows per workflow instead of a day
 * of deliveries. Workers of one workflow's partitions share the hour's row: each adds to it as
 * the last statement before its commit, so the row lock is held for the commit alone (and a
 * transaction locks one counter row, so they cannot deadlock on them).
 */
export const createHourlyCounters: Migration = {
  name: '002_hourly_counters',
  async up(db) {
    await db.schema.createTable('workflows_hourly', (t) => {
      t.text('tenant_id').notNullable();
      t.timestamp('hour', { useTz: true, precision: 0 }).notNullable();
      t.text('workflow_id').notNullable();
      /** Messages seen for the first time (first attempts and replays). */
      t.integer('messages_in').notNullable();
      /** Every attempt, and those that failed or died. */
      t.integer('attempts').notNullable();
      t.integer('processed').notNullable();
      t.integer('errors').notNullable();
      t.integer('dead').notNullable();
      /** Processed messages by end-to-end latency, bins bounded by LATENCY_BOUNDS_MS (last: above). */
      t.specificType('latency_hist', 'integer[]').notNullable();
      t.primary(['tenant_id', 'hour', 'workflow_id']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('workflows_hourly');
  },
};
