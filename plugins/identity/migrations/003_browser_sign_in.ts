import type { Migration } from '../../../kernel/types.js';

/**
 * Browser sign-in (the console):
 * - an identity provider may name the OAuth client the console signs in with (`browser_client_id`,
 *   a public client using PKCE) and a name to show on the sign-in page;
 * - a session may belong to a subject of such a provider rather than to a user: it then carries
 *   the provider and the roles and e-mail mapped from the ID token at sign-in (no user row);
 * - an authorization-code flow in progress is kept until its callback (one use, ten minutes),
 *   found by the hash of the random id the browser holds in a cookie.
 */
export const browserSignIn: Migration = {
  name: '003_browser_sign_in',
  async up(db) {
    await db.raw('ALTER TABLE identity_providers ADD COLUMN browser_client_id text, ADD COLUMN display_name text');
    await db.raw(
      'ALTER TABLE identity_sessions ADD COLUMN provider_id text, ADD COLUMN roles text[], ADD COLUMN email text',
    );
    await db.schema.createTable('identity_browser_flows', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id_hash').notNullable();
      t.text('provider_id').notNullable();
      t.text('state').notNullable();
      t.text('nonce').notNullable();
      t.text('code_verifier').notNullable();
      t.text('redirect_uri').notNullable();
      t.text('return_to').notNullable();
      t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id_hash']);
      t.unique(['id_hash']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('identity_browser_flows');
    await db.raw('ALTER TABLE identity_sessions DROP COLUMN provider_id, DROP COLUMN roles, DROP COLUMN email');
    await db.raw('ALTER TABLE identity_providers DROP COLUMN browser_client_id, DROP COLUMN display_name');
  },
};
