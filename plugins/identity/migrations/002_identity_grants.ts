import type { Knex } from 'knex';
import type { Migration } from '../../../kernel/types.js';

/**
 * The built-in role names when this migration was written. A migration is a snapshot: it must
 * not follow later changes to the code that derives built-in roles.
 */
const BUILT_IN_ROLES = ['account-admin', 'admin', 'builder', 'operator', 'viewer'];

/** Token chains are short; the bound only guards the loop against a cycle nobody can create. */
const MAX_CHAIN_DEPTH = 100;

/**
 * Closes the escalation holes of issue 11 in the stored data:
 * - identity providers: an (issuer, audience) pair belongs to one tenant, enforced by a unique
 *   index so concurrent registrations cannot both win; `allowed_roles` caps the roles a token's
 *   claim may bring (empty: none);
 * - API tokens record the account they live by (`minter_*`, see store/api-tokens.ts): the user
 *   whose session minted them, directly or through a chain of tokens, or the provider, the
 *   configured provider or the break-glass key;
 * - role names left behind by roles deleted before this migration are removed from their old
 *   holders, so re-creating such a role never hands it back to them.
 */
export const secureIdentityGrants: Migration = {
  name: '002_identity_grants',
  async up(db) {
    await db.raw("ALTER TABLE identity_providers ADD COLUMN allowed_roles text[] NOT NULL DEFAULT '{}'");
    // Registrations that repeat an earlier one's (issuer, audience) are what this migration
    // forbids: the copy let one tenant's single sign-on users into another tenant. The earliest
    // registration of each pair stays; the later copies go so the unique index can hold.
    await db.raw(`
      DELETE FROM identity_providers p USING identity_providers q
      WHERE p.issuer = q.issuer AND p.audience = q.audience
        AND (q.created_at, q.tenant_id, q.id) < (p.created_at, p.tenant_id, p.id)`);
    await db.raw('CREATE UNIQUE INDEX identity_providers_issuer_audience ON identity_providers (issuer, audience)');
    // The unique index serves lookups by issuer as well.
    await db.raw('DROP INDEX IF EXISTS identity_providers_issuer_index');

    await db.raw(
      'ALTER TABLE identity_api_tokens ADD COLUMN minter_kind text, ADD COLUMN minter_tenant_id text, ADD COLUMN minter_id text',
    );
    await backfillMinters(db);
    await db.raw('ALTER TABLE identity_api_tokens ALTER COLUMN minter_kind SET NOT NULL');
    await db.raw(
      "ALTER TABLE identity_api_tokens ADD CONSTRAINT identity_api_tokens_minter_kind CHECK (minter_kind IN ('user', 'provider', 'config_provider', 'break_glass'))",
    );
    // Deleting a user or a provider revokes the tokens that live by it (one indexed update).
    await db.raw(
      'CREATE INDEX identity_api_tokens_minter ON identity_api_tokens (minter_tenant_id, minter_id) WHERE minter_tenant_id IS NOT NULL',
    );

    await stripDanglingRoles(db);
  },
  async down(db) {
    await db.raw('DROP INDEX IF EXISTS identity_api_tokens_minter');
    await db.raw('ALTER TABLE identity_api_tokens DROP CONSTRAINT IF EXISTS identity_api_tokens_minter_kind');
    await db.raw(
      'ALTER TABLE identity_api_tokens DROP COLUMN minter_kind, DROP COLUMN minter_tenant_id, DROP COLUMN minter_id',
    );
    await db.raw('DROP INDEX IF EXISTS identity_providers_issuer_audience');
    await db.raw('CREATE INDEX identity_providers_issuer_index ON identity_providers (issuer)');
    await db.raw('ALTER TABLE identity_providers DROP COLUMN allowed_roles');
  },
};

/**
 * Tokens minted before this migration name their minter only in `created_by`, the subject id of
 * the credential that minted them: `break-glass`, a token id (`tok_…`), an OIDC subject
 * (`<provider>:<subject>`) or a user id (ids of users never hold `_` or `:`).
 */
async function backfillMinters(db: Knex): Promise<void> {
  await db.raw("UPDATE identity_api_tokens SET minter_kind = 'break_glass' WHERE created_by = 'break-glass'");
  // An OIDC subject: the tenant's provider of that id, else a provider from configuration (if
  // configuration has none of that id either, the token is refused, as it should be).
  await db.raw(`
    UPDATE identity_api_tokens t SET
      minter_kind = CASE WHEN EXISTS (SELECT 1 FROM identity_providers p WHERE p.tenant_id = t.tenant_id AND p.id = split_part(t.created_by, ':', 1)) THEN 'provider' ELSE 'config_provider' END,
      minter_tenant_id = CASE WHEN EXISTS (SELECT 1 FROM identity_providers p WHERE p.tenant_id = t.tenant_id AND p.id = split_part(t.created_by, ':', 1)) THEN t.tenant_id END,
      minter_id = split_part(t.created_by, ':', 1)
    WHERE t.minter_kind IS NULL AND position(':' in t.created_by) > 0`);
  // A user: of the token's tenant when it has one of that id, else (an account admin minting
  // into another tenant) of another tenant, account admins first. A user deleted since keeps
  // its id here and no row matches it: the token is refused, as it should be.
  await db.raw(`
    UPDATE identity_api_tokens t SET
      minter_kind = 'user',
      minter_id = t.created_by,
      minter_tenant_id = coalesce(
        (SELECT u.tenant_id FROM identity_users u WHERE u.id = t.created_by
          ORDER BY (u.tenant_id = t.tenant_id) DESC, ('account-admin' = ANY(u.roles)) DESC, u.tenant_id LIMIT 1),
        t.tenant_id)
    WHERE t.minter_kind IS NULL AND t.created_by NOT LIKE 'tok\\_%'`);
  // A token minted by a token lives by its parent's minter; chains resolve from their roots.
  for (let depth = 0; depth < MAX_CHAIN_DEPTH; depth++) {
    const result = await db.raw(`
      UPDATE identity_api_tokens t SET minter_kind = p.minter_kind, minter_tenant_id = p.minter_tenant_id, minter_id = p.minter_id
      FROM identity_api_tokens p
      WHERE t.minter_kind IS NULL AND p.id = t.created_by AND p.minter_kind IS NOT NULL
      RETURNING t.id`);
    if (rowsOf(result).length === 0) break;
  }
  // A parent nobody can find: no account vouches for the token, so it lives by no one.
  await db.raw(
    "UPDATE identity_api_tokens SET minter_kind = 'user', minter_tenant_id = tenant_id, minter_id = created_by, revoked_at = coalesce(revoked_at, now()) WHERE minter_kind IS NULL",
  );
}

async function stripDanglingRoles(db: Knex): Promise<void> {
  const kept = (table: string, column: string): string => `
    UPDATE ${table} x SET ${column} = ARRAY(
      SELECT r FROM unnest(x.${column}) WITH ORDINALITY AS e(r, n)
      WHERE r = ANY(?::text[]) OR EXISTS (SELECT 1 FROM identity_roles c WHERE c.tenant_id = x.tenant_id AND c.id = r)
      ORDER BY n)
    WHERE NOT (x.${column} <@ (?::text[] || ARRAY(SELECT c.id FROM identity_roles c WHERE c.tenant_id = x.tenant_id)))`;
  for (const [table, column] of [
    ['identity_users', 'roles'],
    ['identity_api_tokens', 'roles'],
    ['identity_providers', 'default_roles'],
  ] as const) {
    await db.raw(kept(table, column), [BUILT_IN_ROLES, BUILT_IN_ROLES]);
  }
}

/** pg answers db.raw with a result object, knex-pglite with its own; both carry `rows`. */
function rowsOf(result: unknown): unknown[] {
  const rows = (result as { rows?: unknown[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows : [];
}
