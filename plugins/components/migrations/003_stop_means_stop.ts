import type { Migration } from '../../../kernel/types.js';

/**
 * A failed source's status shows when its next attempt is due (`next_attempt_at`, set by the
 * supervisor with the job runner's backoff; cleared once it runs).
 *
 * Processors and sinks are made `running`: stopping one now holds the workflows that use it
 * (stop means stop), and a new one is created running (usable at once; nothing to start). Before,
 * their state had no effect — a "stopped" sink delivered — so every existing one (no stream: not
 * a source) was in effect running; saying so keeps their workflows flowing after the upgrade.
 */
export const stopMeansStop: Migration = {
  name: '003_stop_means_stop',
  async up(db) {
    await db.raw('ALTER TABLE components ADD COLUMN next_attempt_at timestamptz(3)');
    await db.raw(
      "UPDATE components SET desired_state = 'running', state = 'running', state_since = now() WHERE stream IS NULL AND desired_state = 'stopped' AND type <> 'legacy'",
    );
  },
  async down(db) {
    // Running processors and sinks were what the runtime did anyway: only the column goes.
    await db.raw('ALTER TABLE components DROP COLUMN next_attempt_at');
  },
};
