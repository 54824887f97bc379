import type { Migration } from '../../../kernel/types.js';

/**
 * The open jobs in the order a fetch takes them (oldest first). Completed jobs stay in the table,
 * so a fetch must not read past them; and the embedded database never gathers statistics, so its
 * planner, guessing every index equally cheap, read the whole table through whichever it took
 * first (every fetch slower than the last as jobs piled up). This index holds the open rows only,
 * already in the fetch's order: a fetch reads the first unlocked ones and stops.
 */
export const openJobs: Migration = {
  name: '004_bpmn_open_jobs',
  async up(db) {
    await db.raw("CREATE INDEX bpmn_jobs_open ON bpmn_jobs (tenant_id, created_at, id) WHERE state = 'open'");
  },
  async down(db) {
    await db.raw('DROP INDEX bpmn_jobs_open');
  },
};
