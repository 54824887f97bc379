import { ApiError } from '../../../kernel/errors.js';
import { slugify } from '../../../kernel/ids.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { isLoopbackUrl } from '../oidc/issuers.js';
import { DEFAULT_ALGORITHMS } from '../settings.js';
import { deleteProvider, getProvider, insertProvider, listProviders, providerColumns, toProvider, updateProvider } from '../store/providers.js';
import { requireTenant } from '../store/tenants.js';
import { assertGrantable, idParam, pageOf, tenantOf } from './common.js';

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No identity provider "${id}".`);
}

/** https only; plain http only on a loopback address and only when explicitly allowed. */
function checkIssuer(issuer: string, allowInsecure: boolean): void {
  const url = new URL(issuer);
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && allowInsecure && isLoopbackUrl(issuer));
  if (!ok) {
    throw new ApiError('validation_error', 'The issuer must be an https URL (plain http is accepted only on a loopback address with allow_insecure_http).', {
      details: [{ in: 'body', pointer: '/issuer', message: 'must use https' }],
    });
  }
}

export function providerHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { clock } = deps;

  async function checkDefaultRoles(call: Call, tenantId: string, roles: unknown): Promise<void> {
    if (Array.isArray(roles)) await assertGrantable(call, deps, tenantId, roles as string[], '/default_roles');
  }

  return {
    async listIdentityProviders(call) {
      const page = pageOf(call);
      const rows = await listProviders(call.db, tenantOf(call), page.afterId, page.fetch);
      return { status: 200, body: { items: rows.map(toProvider) } };
    },

    async createIdentityProvider(call) {
      const body = call.body as Record<string, unknown> & { id?: string; issuer: string; audience: string };
      const tenantId = tenantOf(call);
      await requireTenant(call.db, tenantId);
      checkIssuer(body.issuer, body.allow_insecure_http === true);
      await checkDefaultRoles(call, tenantId, body.default_roles);
      const id = body.id ?? slugify(new URL(body.issuer).host);
      call.resourceId = id;
      const columns = { algorithms: DEFAULT_ALGORITHMS, ...providerColumns(body) };
      const row = await insertProvider(call.db, tenantId, id, columns, clock.now());
      return { status: 201, body: toProvider(row), headers: { Location: `/identity-providers/${id}` } };
    },

    async getIdentityProvider(call) {
      const row = await getProvider(call.db, tenantOf(call), idParam(call));
      if (!row) throw notFound(idParam(call));
      return { status: 200, body: toProvider(row) };
    },

    async patchIdentityProvider(call) {
      const body = call.body as Record<string, unknown>;
      const tenantId = tenantOf(call);
      const id = idParam(call);
      call.resourceId = id;
      const existing = await getProvider(call.db, tenantId, id);
      if (!existing) throw notFound(id);
      const issuer = typeof body.issuer === 'string' ? body.issuer : existing.issuer;
      const insecure = typeof body.allow_insecure_http === 'boolean' ? body.allow_insecure_http : existing.allow_insecure_http;
      checkIssuer(issuer, insecure);
      await checkDefaultRoles(call, tenantId, body.default_roles);
      const row = await updateProvider(call.db, tenantId, id, providerColumns(body), clock.now());
      if (!row) throw notFound(id);
      return { status: 200, body: toProvider(row) };
    },

    async deleteIdentityProvider(call) {
      const id = idParam(call);
      call.resourceId = id;
      if (!(await deleteProvider(call.db, tenantOf(call), id))) throw notFound(id);
      return { status: 204 };
    },
  };
}
