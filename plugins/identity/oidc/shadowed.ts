import type { Knex } from 'knex';
import type { IdentityDeps } from '../deps.js';
import { registrationsOf } from '../store/providers.js';

/**
 * A tenant may have registered an (issuer, audience) pair before the configuration named it;
 * the configured provider then validates those tokens and the registration is never used (see
 * the OIDC authenticator). Said once at start, so the operator can delete the registration.
 */
export async function warnShadowedRegistrations(db: Knex, deps: IdentityDeps): Promise<void> {
  for (const p of deps.settings.providers) {
    for (const row of await registrationsOf(db, p.issuer, p.audience)) {
      deps.logger.warn(
        { provider: p.id, tenant: row.tenant_id, registration: row.id },
        "a tenant's identity provider has the issuer and audience of a configured provider and is ignored",
      );
    }
  }
}
