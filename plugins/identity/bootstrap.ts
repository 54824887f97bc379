import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { slugify } from '../../kernel/plugin/api.js';
import type { IdentityDeps } from './deps.js';
import type { IdentitySettings } from './settings.js';
import { hashPassword } from './passwords/scrypt.js';
import { ACCOUNT_ADMIN_ROLE } from './roles.js';
import { insertTenantIfAbsent, tenantExists } from './store/tenants.js';
import { insertUser } from './store/users.js';

/**
 * First start (DESIGN.md "bootstrap"): creates tenant `default` and user `admin` holding the
 * admin and account-admin roles, so the admin can also manage tenants. The password is
 * RUNTIME_ADMIN_PASSWORD, else the configured one, else generated and printed once to stderr
 * (never to the log). Runs only when this instance creates the tenant, so several instances
 * starting together, or a restart after the admin was removed, create nothing twice. In
 * three parts so the slow one overlaps the boot: the password's hash begins before the database
 * opens (prepareBootstrapCredential), whether it is needed is asked at set-up
 * (bootstrapCredential), and the account is created at start (createBootstrapAdmin).
 */

/** The bootstrap account's password and its hash, or null when there is nothing to create. */
export interface BootstrapCredential {
  password: string;
  generated: boolean;
  hash: string;
}

/**
 * The slow part, begun at prepare: the password and its scrypt hash (hundreds of milliseconds on
 * a worker thread, most of a first start's time), so it runs while the database opens and
 * migrates. Undefined when bootstrapping is off. The hash is thrown away if the account exists.
 */
export function prepareBootstrapCredential(settings: IdentitySettings): Promise<BootstrapCredential> | undefined {
  const plan = settings.bootstrap;
  if (!plan.enabled) return undefined;
  const generated = plan.password === null;
  const password = plan.password ?? randomBytes(18).toString('base64url');
  const credential = hashPassword(password, settings.scrypt).then((hash) => ({ password, generated, hash }));
  // Observed at set-up or start; a boot that fails before then must not report it as unhandled.
  credential.catch(() => undefined);
  return credential;
}

/**
 * Whether the account is to be created and, if so, its credential: the prepared one, or else (a
 * database that existed at prepare) one hashed now.
 */
export async function bootstrapCredential(
  db: Knex,
  deps: IdentityDeps,
  prepared?: Promise<BootstrapCredential>,
): Promise<BootstrapCredential | null> {
  const plan = deps.settings.bootstrap;
  if (!plan.enabled) return null;
  if (await tenantExists(db, plan.tenantId)) return null;
  if (prepared) return prepared;
  const generated = plan.password === null;
  const password = plan.password ?? randomBytes(18).toString('base64url');
  return { password, generated, hash: await deps.hashes.run(() => hashPassword(password, deps.settings.scrypt)) };
}

/** The fast half: creates the tenant and the admin with the hash, unless another instance did first. */
export async function createBootstrapAdmin(
  db: Knex,
  deps: IdentityDeps,
  credential: BootstrapCredential | null,
): Promise<void> {
  if (!credential) return;
  const plan = deps.settings.bootstrap;
  const { password, generated, hash } = credential;
  const now = deps.clock.now();
  const created = await db.transaction(async (trx) => {
    if (!(await insertTenantIfAbsent(trx, plan.tenantId, plan.tenantId, now))) return false;
    await insertUser(
      trx,
      plan.tenantId,
      {
        id: slugify(plan.username) || 'admin',
        username: plan.username,
        passwordHash: hash,
        roles: ['admin', ACCOUNT_ADMIN_ROLE],
      },
      now,
    );
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
