import type { Migration } from '../../../kernel/types.js';

/**
 * Components become instances of a component type. Rows made before types existed are marked
 * `legacy`: a type no plugin contributes, so they can be read, changed and deleted but not run
 * (their old `config` was never validated against anything). Secrets move out of `config` into
 * `secrets` (encrypted); `desired_state` is what an operator asked for, `state` what runs.
 */
export const addComponentTypes: Migration = {
  name: '002_component_types',
  async up(db) {
    await db.schema.alterTable('components', (t) => {
      t.text('type').notNullable().defaultTo('legacy'); // the default marks rows written without a type
      t.text('stream');
      t.text('desired_state').notNullable().defaultTo('stopped');
      t.text('secrets');
      t.specificType('secret_fields', 'text[]').notNullable().defaultTo('{}');
      t.text('last_error');
      t.timestamp('state_since', { useTz: true, precision: 3 });
      t.integer('generation').notNullable().defaultTo(0);
    });
    await db.raw(
      "UPDATE components SET state_since = updated_at, desired_state = CASE WHEN state = 'stopped' THEN 'stopped' ELSE 'running' END",
    );
    await db.raw(
      'ALTER TABLE components ALTER COLUMN state_since SET DEFAULT now(), ALTER COLUMN state_since SET NOT NULL',
    );
    // The supervisor's question on every instance: which sources should run.
    await db.raw(
      "CREATE INDEX components_desired_running ON components (desired_state) WHERE desired_state = 'running'",
    );
  },
};
