import type { Knex } from 'knex';
import type { IdentityDeps } from '../deps.js';

/**
 * A tenant may have registered an (issuer, audience) pair before the configuration named it;
 * the configured provider then validates those tokens and the registration is never used (see
 * the OIDC authenticator). Said once at start, so the operator can delete the registration.
 */
export async function warnShadowedRegistrations(db: Knex, deps: IdentityDeps): Promise<void> {
  for (const p of deps.settings.providers) {
    const rows = (await db('identity_providers').where({ issuer: p.issuer, audience: p.audience }).select('tenant_id', 'id')) as Array<{ tenant_id: string; id: string }>;
    for (const row of rows) {
      deps.logger.warn({ provider: p.id, tenant: row.tenant_id, registration: row.id }, 'a tenant\'s identity provider has the issuer and audience of a configured provider and is ignored');
    }
  }
}
