import { randomBytes, randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { CommandError } from '../../../kernel/plugin/api.js';
import type { MaintenanceCommand, MaintenanceContext, Principal } from '../../../kernel/types.js';
import type { Settings } from '../generated/manifest-types.js';
import { tenantExists } from '../store/tenants.js';
import { findUserByName, getUser } from '../store/users.js';

function parse(args: readonly string[]): { tenant?: string; user?: string; enable: boolean } {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { tenant: { type: 'string' }, user: { type: 'string' }, enable: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    });
    return {
      ...(values.tenant !== undefined ? { tenant: values.tenant } : {}),
      ...(values.user !== undefined ? { user: values.user } : {}),
      enable: values.enable === true,
    };
  } catch (err) {
    throw new CommandError((err as Error).message, true);
  }
}

/** Who ran the command, for the audit record: the operating-system account. */
function operator(env: MaintenanceContext['env']): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

/**
 * Recovers an account whose password is lost (the generated bootstrap password, typically)
 * without touching any data: sets a new password, clears a lockout, ends the user's sessions. It
 * goes through the user route's own pipeline (PATCH /users/{id}), so the password rules, the
 * session revocation and the audit record are the API's; the record names the maintenance
 * credential and the operating-system account that ran it.
 */
export const resetPasswordCommand: MaintenanceCommand<Settings> = {
  summary:
    'Sets a new password for a user (RUNTIME_ADMIN_PASSWORD, else generated and printed once), clears its lockout and ends its sessions; defaults to the bootstrap admin',
  usage: '[--tenant <id>] [--user <username or id>] [--enable]',
  async run({ args, services, settings, env, print }) {
    const options = parse(args);
    const { bootstrap } = settings;
    const tenantId = options.tenant ?? bootstrap.tenant_id;
    const name = options.user ?? bootstrap.username;
    if (!(await tenantExists(services.db, tenantId))) throw new CommandError(`no tenant "${tenantId}"`);
    const user = (await getUser(services.db, tenantId, name)) ?? (await findUserByName(services.db, tenantId, name));
    if (!user) throw new CommandError(`no user "${name}" in tenant "${tenantId}"`);
    if (user.disabled && !options.enable)
      throw new CommandError(
        `user "${user.username}" in tenant "${tenantId}" is disabled; add --enable to enable it as well`,
      );

    const chosen = env.RUNTIME_ADMIN_PASSWORD;
    const password = chosen || randomBytes(18).toString('base64url');
    const principal: Principal = {
      subjectId: 'maintenance',
      tenantId,
      credential: { kind: 'maintenance', id: 'reset-password' },
      roles: [],
      permissions: new Set(services.catalog.permissions.keys()),
    };
    await services.dispatcher.dispatch({
      operation: 'patchUser',
      transport: 'cli',
      requestId: randomUUID(),
      params: { id: user.id },
      body: { password, unlock: true, ...(options.enable ? { disabled: false } : {}) },
      headers: { 'x-service-actor-type': 'human', 'x-service-actor-id': operator(env) },
      principal,
    });
    print(
      `Password of user "${user.username}" in tenant "${tenantId}" reset: lockout cleared, sessions ended${options.enable && user.disabled ? ', account enabled' : ''}.`,
    );
    if (!chosen) print(`New password (shown once): ${password}`);
  },
};
