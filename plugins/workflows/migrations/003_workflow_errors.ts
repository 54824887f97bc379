import type { Migration } from '../../../kernel/types.js';

/**
 * A running workflow that cannot process (its last attempt failed: a broker gone, a step that
 * cannot be built) shows it: `last_error` and `failed_at`, set by the worker when it starts
 * failing and cleared when a batch goes through again — never only on the server's stderr.
 */
export const addWorkflowErrors: Migration = {
  name: '003_workflow_errors',
  async up(db) {
    await db.raw('ALTER TABLE workflows_workflows ADD COLUMN last_error text, ADD COLUMN failed_at timestamptz(3)');
  },
  async down(db) {
    await db.raw('ALTER TABLE workflows_workflows DROP COLUMN last_error, DROP COLUMN failed_at');
  },
};
