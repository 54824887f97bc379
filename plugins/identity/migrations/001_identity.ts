import type { Knex } from 'knex';
import type { Migration } from '../../../kernel/types.js';

function timestamps(t: Knex.CreateTableBuilder): void {
  t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
}

/**
 * Identity tables. Tenant data is keyed by tenant first (DESIGN.md "Storage"). The exceptions
 * are the unique indexes on credential hashes: a bearer secret arrives without its tenant, so
 * it must be found by its hash alone (a sharded deployment keeps these as a lookup table).
 */
export const createIdentityTables: Migration = {
  name: '001_identity',
  async up(db) {
    await db.schema.createTable('identity_tenants', (t) => {
      t.text('id').primary();
      t.text('name').notNullable();
      timestamps(t);
    });
    await db.schema.createTable('identity_users', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('username').notNullable();
      t.text('email');
      t.text('display_name');
      t.text('password_hash').notNullable();
      t.specificType('roles', 'text[]').notNullable().defaultTo('{}');
      t.boolean('disabled').notNullable().defaultTo(false);
      t.integer('failed_logins').notNullable().defaultTo(0);
      t.integer('lockouts').notNullable().defaultTo(0);
      t.timestamp('locked_until', { useTz: true, precision: 3 });
      t.timestamp('last_login_at', { useTz: true, precision: 3 });
      timestamps(t);
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
    });
    await db.raw('CREATE UNIQUE INDEX identity_users_username ON identity_users (tenant_id, lower(username))');
    await db.schema.createTable('identity_sessions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('subject_id').notNullable();
      t.text('access_hash').notNullable().unique();
      t.timestamp('access_expires_at', { useTz: true, precision: 3 }).notNullable();
      t.text('refresh_hash').notNullable().unique();
      t.timestamp('refresh_expires_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('max_expires_at', { useTz: true, precision: 3 }).notNullable();
      t.integer('generation').notNullable().defaultTo(1);
      t.text('user_agent');
      timestamps(t);
      t.timestamp('refreshed_at', { useTz: true, precision: 3 });
      t.timestamp('revoked_at', { useTz: true, precision: 3 });
      t.text('revoked_reason');
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'subject_id']);
    });
    // Refresh tokens already rotated out: seeing one again means it leaked (reuse detection).
    await db.schema.createTable('identity_refresh_history', (t) => {
      t.text('tenant_id').notNullable();
      t.text('session_id').notNullable();
      t.text('refresh_hash').notNullable().unique();
      t.timestamp('rotated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'session_id', 'refresh_hash']);
    });
    await db.schema.createTable('identity_api_tokens', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('name').notNullable();
      t.text('secret_hash').notNullable().unique();
      t.specificType('roles', 'text[]').notNullable();
      t.boolean('read_only').notNullable().defaultTo(false);
      t.timestamp('expires_at', { useTz: true, precision: 3 });
      t.timestamp('revoked_at', { useTz: true, precision: 3 });
      t.text('created_by').notNullable();
      timestamps(t);
      t.timestamp('last_used_at', { useTz: true, precision: 3 });
      t.primary(['tenant_id', 'id']);
    });
    await db.schema.createTable('identity_roles', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('description').notNullable().defaultTo('');
      t.specificType('permissions', 'text[]').notNullable();
      timestamps(t);
      t.primary(['tenant_id', 'id']);
    });
    await db.schema.createTable('identity_providers', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('issuer').notNullable();
      t.text('audience').notNullable();
      t.text('subject_claim').notNullable().defaultTo('sub');
      t.text('tenant_claim');
      t.text('roles_claim').notNullable().defaultTo('roles');
      t.specificType('algorithms', 'text[]').notNullable();
      t.specificType('default_roles', 'text[]').notNullable().defaultTo('{}');
      t.boolean('allow_insecure_http').notNullable().defaultTo(false);
      t.boolean('enabled').notNullable().defaultTo(true);
      timestamps(t);
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['issuer']);
    });
  },
  async down(db) {
    for (const table of [
      'identity_providers',
      'identity_roles',
      'identity_api_tokens',
      'identity_refresh_history',
      'identity_sessions',
      'identity_users',
      'identity_tenants',
    ]) {
      await db.schema.dropTableIfExists(table);
    }
  },
};
