import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { slugify } from '../../kernel/plugin/api.js';
import type { IdentityDeps } from './deps.js';
import { hashPassword } from './passwords/scrypt.js';
import { ACCOUNT_ADMIN_ROLE } from './roles.js';

/**
 * First start (DESIGN.md "bootstrap"): creates tenant `default` and user `admin` holding the
 * admin and account-admin roles, so the admin can also manage tenants. The password is
 * RUNTIME_ADMIN_PASSWORD, else the configured one, else generated and printed once to stderr
 * (never to the log). Runs only when this instance creates the tenant, so several instances
 * starting together, or a restart after the admin was removed, create nothing twice.
 */
export async function bootstrapAdmin(db: Knex, deps: IdentityDeps): Promise<void> {
  const plan = deps.settings.bootstrap;
  if (!plan.enabled) return;
  if (await db('identity_tenants').where({ id: plan.tenantId }).first('id')) return;
  const generated = plan.password === null;
  const password = plan.password ?? randomBytes(18).toString('base64url');
  const hash = await deps.hashes.run(() => hashPassword(password, deps.settings.scrypt));
  const now = deps.clock.now();
  const created = await db.transaction(async (trx) => {
    const tenant = await trx('identity_tenants').insert({ id: plan.tenantId, name: plan.tenantId, created_at: now }).onConflict('id').ignore().returning('id');
    if (tenant.length === 0) return false;
    await trx('identity_users').insert({
      tenant_id: plan.tenantId,
      id: slugify(plan.username) || 'admin',
      username: plan.username,
      password_hash: hash,
      roles: ['admin', ACCOUNT_ADMIN_ROLE],
      created_at: now,
      updated_at: now,
    });
    return true;
  });
  if (!created) return;
  deps.logger.info({ tenant: plan.tenantId, username: plan.username }, 'bootstrap admin created');
  if (generated) {
    process.stderr.write(
      `\n  Bootstrap admin created: tenant "${plan.tenantId}", username "${plan.username}", password: ${password}\n` +
        '  This password is shown once. Set RUNTIME_ADMIN_PASSWORD before the first start to choose it.\n\n',
    );
  }
}
