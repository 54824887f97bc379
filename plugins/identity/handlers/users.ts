import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers, slugify, type CallOf, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Call, Handler, Reply } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { keepingAnAccountAdmin } from '../last-admin.js';
import { preparedPasswordHash } from '../passwords/step.js';
import { revokeTokensOf } from '../store/api-tokens.js';
import { revokeSubjectSessions } from '../store/sessions.js';
import { requireTenant } from '../store/tenants.js';
import { deleteUser, getUser, insertUser, listUsers, toUser, updateUser, type UserRow } from '../store/users.js';
import { assertGrantable, pageOf, type SignedInCall } from './common.js';

/** A call on one user of the tenant, by the id in the path. */
type UserCall = TenantCall & SignedInCall & { params: { id: string } };

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No user "${id}".`);
}

function passwordHash(call: Call): string {
  const hash = preparedPasswordHash(call);
  if (!hash) throw new ApiError('internal_error', 'the password step did not run');
  return hash;
}

export function userHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { clock } = deps;

  /**
   * A caller may only manage users who hold no more than the caller does; otherwise a tenant
   * admin could reset the password of an account-wide admin and become one.
   */
  async function manageable(call: UserCall): Promise<UserRow> {
    const { tenantId } = call;
    const { id } = call.params;
    const user = await getUser(call.db, tenantId, id, true);
    if (!user) throw notFound(id);
    const held = call.principal.permissions;
    const theirs = await deps.roles.permissionsOf(call.db, tenantId, user.roles);
    const excess = [...theirs].filter((p) => !held.has(p)).sort();
    if (excess.length > 0)
      throw new ApiError('forbidden', `User "${id}" holds permissions you do not hold: ${excess.join(', ')}.`);
    call.resourceId = id;
    return user;
  }

  return operationHandlers<Operations>({
    async listUsers(call) {
      const page = pageOf(call);
      const { disabled } = call.query;
      const rows = await listUsers(call.db, call.tenantId, {
        fetch: page.fetch,
        ...(page.afterId !== undefined ? { afterId: page.afterId } : {}),
        ...(disabled !== undefined ? { disabled } : {}),
      });
      const now = clock.now();
      return { status: 200, body: { items: rows.map((r) => toUser(r, now)) } };
    },

    async createUser(call) {
      const { body, tenantId } = call;
      await requireTenant(call.db, tenantId);
      const id = body.id ?? slugify(body.username);
      if (!id)
        throw new ApiError('validation_error', 'The username yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/username', message: 'has no letters or digits to derive an id from' }],
        });
      const roles = body.roles ?? [];
      await assertGrantable(call, deps, tenantId, roles);
      call.resourceId = id;
      const now = clock.now();
      const row = await insertUser(
        call.db,
        tenantId,
        {
          id,
          username: body.username,
          passwordHash: passwordHash(call),
          roles,
          email: body.email ?? null,
          displayName: body.display_name ?? null,
        },
        now,
      );
      return { status: 201, body: toUser(row, now), headers: { Location: `/users/${id}` } };
    },

    async getUser(call) {
      const row = await getUser(call.db, call.tenantId, call.params.id);
      if (!row) throw notFound(call.params.id);
      return { status: 200, body: toUser(row, clock.now()) };
    },

    async patchUser(call) {
      // Only disabling can take away the last account admin; other changes need no guard.
      if (call.body.disabled === true) return keepingAnAccountAdmin(call, deps, call.tenantId, () => changeUser(call));
      return changeUser(call);
    },

    async deleteUser(call) {
      return keepingAnAccountAdmin(call, deps, call.tenantId, async () => {
        const user = await manageable(call);
        const now = clock.now();
        const sessions = await revokeSubjectSessions(call.db, user.tenant_id, user.id, 'user_deleted', now);
        // Disabled or deleted, the user's tokens are refused at once (see minters.ts); revoking
        // them too keeps them dead should a new user ever get the same id.
        const tokens = await revokeTokensOf(call.db, { kind: 'user', tenantId: user.tenant_id, id: user.id }, now);
        await deleteUser(call.db, user.tenant_id, user.id);
        call.notes.auditDetail = { sessions_revoked: sessions, api_tokens_revoked: tokens };
        return { status: 204 };
      });
    },

    async assignUserRoles(call) {
      const { roles } = call.body;
      return keepingAnAccountAdmin(call, deps, call.tenantId, async () => {
        const user = await manageable(call);
        await assertGrantable(call, deps, user.tenant_id, roles);
        const now = clock.now();
        const row = await updateUser(call.db, user.tenant_id, user.id, { roles }, now);
        if (!row) throw notFound(user.id);
        call.notes.auditDetail = { previous_roles: user.roles };
        return { status: 200, body: toUser(row, now) };
      });
    },
  });

  /** PATCH /users/{id}: profile, password, disabled state, lockout. */
  async function changeUser(call: CallOf<Operations['patchUser']>): Promise<Reply> {
    const { body } = call;
    const user = await manageable(call);
    const now = clock.now();
    const patch: Record<string, unknown> = {};
    if (body.email !== undefined) patch.email = body.email;
    if (body.display_name !== undefined) patch.display_name = body.display_name;
    if (body.disabled !== undefined) patch.disabled = body.disabled;
    if (body.unlock) Object.assign(patch, { failed_logins: 0, lockouts: 0, locked_until: null });
    if (body.password !== undefined)
      Object.assign(patch, { password_hash: passwordHash(call), failed_logins: 0, locked_until: null });
    const row = await updateUser(call.db, user.tenant_id, user.id, patch, now);
    if (!row) throw notFound(user.id);
    // A disabled account or a new password ends every session at once.
    const reason =
      body.disabled === true ? 'user_disabled' : body.password !== undefined ? 'password_changed' : undefined;
    if (reason)
      call.notes.auditDetail = {
        reason,
        sessions_revoked: await revokeSubjectSessions(call.db, user.tenant_id, user.id, reason, now),
      };
    return { status: 200, body: toUser(row, now) };
  }
}
