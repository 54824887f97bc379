import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers, slugify } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { isLoopbackUrl } from '../oidc/issuers.js';
import { DEFAULT_ALGORITHMS } from '../settings.js';
import { revokeTokensOf } from '../store/api-tokens.js';
import {
  deleteProvider,
  getProvider,
  insertProvider,
  listProviders,
  pairRegistered,
  pairTaken,
  providerColumns,
  toProvider,
  updateProvider,
  type ProviderRow,
} from '../store/providers.js';
import { requireTenant } from '../store/tenants.js';
import { assertGrantable, pageOf, type SignedInCall } from './common.js';

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No identity provider "${id}".`);
}

/** https only; plain http only on a loopback address and only when explicitly allowed. */
function checkIssuer(issuer: string, allowInsecure: boolean): void {
  const url = new URL(issuer);
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && allowInsecure && isLoopbackUrl(issuer));
  if (!ok) {
    throw new ApiError(
      'validation_error',
      'The issuer must be an https URL (plain http is accepted only on a loopback address with allow_insecure_http).',
      {
        details: [{ in: 'body', pointer: '/issuer', message: 'must use https' }],
      },
    );
  }
}

export function providerHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { clock } = deps;

  /**
   * A provider grants its default roles to every token it validates, and the claim roles it
   * allows to the tokens that claim them: the registrant must hold all of them (an IdP's role
   * mapping is a grant like any other).
   */
  async function checkGrants(
    call: SignedInCall,
    tenantId: string,
    defaultRoles: readonly string[],
    allowedRoles: readonly string[],
  ): Promise<void> {
    await assertGrantable(call, deps, tenantId, defaultRoles, '/default_roles');
    await assertGrantable(call, deps, tenantId, allowedRoles, '/allowed_roles');
  }

  /**
   * An (issuer, audience) pair belongs to one tenant across the service (DESIGN.md "identity
   * providers"), so a token is only ever validated by one provider and signs in to its tenant.
   * This check answers the usual case; the unique index settles concurrent registrations.
   */
  async function checkPairFree(call: Call, issuer: string, audience: string, self?: ProviderRow): Promise<void> {
    const configured = deps.settings.providers.some((p) => p.issuer === issuer && p.audience === audience);
    const except = self ? { tenantId: self.tenant_id, id: self.id } : undefined;
    if (configured || (await pairRegistered(call.db, issuer, audience, except))) throw pairTaken(issuer, audience);
  }

  return operationHandlers<Operations>({
    async listIdentityProviders(call) {
      const page = pageOf(call);
      const rows = await listProviders(call.db, call.tenantId, page.afterId, page.fetch);
      return { status: 200, body: { items: rows.map(toProvider) } };
    },

    async createIdentityProvider(call) {
      const { body, tenantId } = call;
      await requireTenant(call.db, tenantId);
      checkIssuer(body.issuer, body.allow_insecure_http === true);
      await checkGrants(call, tenantId, body.default_roles ?? [], body.allowed_roles ?? []);
      const id = body.id ?? slugify(new URL(body.issuer).host);
      call.resourceId = id;
      await checkPairFree(call, body.issuer, body.audience);
      const columns = { algorithms: DEFAULT_ALGORITHMS, ...providerColumns(body) };
      const row = await insertProvider(call.db, tenantId, id, columns, clock.now());
      return { status: 201, body: toProvider(row), headers: { Location: `/identity-providers/${id}` } };
    },

    async getIdentityProvider(call) {
      const row = await getProvider(call.db, call.tenantId, call.params.id);
      if (!row) throw notFound(call.params.id);
      return { status: 200, body: toProvider(row) };
    },

    async patchIdentityProvider(call) {
      const { body, tenantId } = call;
      const { id } = call.params;
      call.resourceId = id;
      const existing = await getProvider(call.db, tenantId, id);
      if (!existing) throw notFound(id);
      const issuer = body.issuer ?? existing.issuer;
      const audience = body.audience ?? existing.audience;
      const insecure = body.allow_insecure_http ?? existing.allow_insecure_http;
      checkIssuer(issuer, insecure);
      // Whatever else changes (the issuer, the claims, the roles), the provider then grants its
      // roles anew: the caller must be able to grant them. Only switching it off grants nothing.
      const disablesOnly = Object.keys(body).length === 1 && body.enabled === false;
      if (!disablesOnly) {
        await checkGrants(
          call,
          tenantId,
          body.default_roles ?? existing.default_roles,
          body.allowed_roles ?? existing.allowed_roles,
        );
      }
      if (issuer !== existing.issuer || audience !== existing.audience)
        await checkPairFree(call, issuer, audience, existing);
      const row = await updateProvider(call.db, existing, providerColumns(body), clock.now());
      if (!row) throw notFound(id);
      return { status: 200, body: toProvider(row) };
    },

    async deleteIdentityProvider(call) {
      const { id } = call.params;
      call.resourceId = id;
      const { tenantId } = call;
      if (!(await deleteProvider(call.db, tenantId, id))) throw notFound(id);
      // Its tokens are refused already (the provider is gone); revoked, they stay dead should a
      // provider of the same id be registered again.
      const tokens = await revokeTokensOf(call.db, { kind: 'provider', tenantId, id }, clock.now());
      if (tokens > 0) call.notes.auditDetail = { api_tokens_revoked: tokens };
      return { status: 204 };
    },
  });
}
