import type { Migration } from '../../../kernel/types.js';

/**
 * The engine's saved state is stored as text, not jsonb: nothing queries inside it, it is only
 * written at every wait and read back whole to resume, and converting a few kilobytes of JSON to
 * jsonb at every start cost the embedded database more than the rest of the snapshot's insert.
 */
export const snapshotStateText: Migration = {
  name: '002_bpmn_snapshot_state_text',
  async up(db) {
    await db.raw('ALTER TABLE bpmn_snapshots ALTER COLUMN engine_state TYPE text USING engine_state::text');
  },
  async down(db) {
    await db.raw('ALTER TABLE bpmn_snapshots ALTER COLUMN engine_state TYPE jsonb USING engine_state::jsonb');
  },
};
