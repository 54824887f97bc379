import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { fromRoot } from '../../kernel/paths.js';
import type { KernelConfig } from '../../kernel/config/types.js';
import type { Authenticator, Catalog, Clock, PluginDefinition } from '../../kernel/types.js';
import { apiTokenAuthenticator } from './authenticators/api-token.js';
import { breakGlassAuthenticator, breakGlassReadAudit } from './authenticators/break-glass.js';
import { oidcAuthenticator } from './authenticators/oidc.js';
import { sessionAuthenticator } from './authenticators/session.js';
import { bootstrapAdmin } from './bootstrap.js';
import { resetPasswordCommand } from './commands/reset-password.js';
import type { IdentityDeps } from './deps.js';
import { apiTokenHandlers } from './handlers/api-tokens.js';
import { authHandlers } from './handlers/auth.js';
import { providerHandlers } from './handlers/providers.js';
import { roleHandlers } from './handlers/roles.js';
import { tenantHandlers } from './handlers/tenants.js';
import { userHandlers } from './handlers/users.js';
import { createIdentityTables } from './migrations/001_identity.js';
import { secureIdentityGrants } from './migrations/002_identity_grants.js';
import { warnShadowedRegistrations } from './oidc/shadowed.js';
import { Semaphore } from './passwords/semaphore.js';
import { passwordWorkStep } from './passwords/step.js';
import { builtInRoles, RoleBook } from './roles.js';
import { parseSettings } from './settings.js';
import { allTenantIds, tenantExists } from './store/tenants.js';

const plugin: PluginDefinition = {
  id: 'identity',
  manifest: fromRoot('manifests', 'identity.json'),
  migrations: [createIdentityTables, secureIdentityGrants],
  setup(context) {
    const services = context.services;
    const config = services.config as Readonly<KernelConfig>;
    const settings = parseSettings(context.settings, config.profile, process.env);
    const catalog = services.catalog as Catalog;
    const deps: IdentityDeps = {
      settings,
      clock: services.clock as Clock,
      roles: new RoleBook(builtInRoles(catalog)),
      hashes: new Semaphore(settings.maxConcurrentHashes, settings.maxQueuedHashes),
      logger: services.logger as Logger,
      catalog,
      audit: () => services.audit,
    };
    // The credential chain, in the order of spec §5: session, API token, OIDC JWT, break-glass.
    const authenticators: Authenticator[] = [sessionAuthenticator(deps), apiTokenAuthenticator(deps), oidcAuthenticator(deps)];
    if (settings.breakGlass) authenticators.push(breakGlassAuthenticator(deps, settings.breakGlass));
    return {
      handlers: {
        ...authHandlers(deps),
        ...tenantHandlers(deps),
        ...userHandlers(deps),
        ...roleHandlers(deps),
        ...apiTokenHandlers(deps),
        ...providerHandlers(deps),
      },
      authenticators,
      tenants: { list: allTenantIds, exists: tenantExists },
      steps: { authenticate: breakGlassReadAudit(deps), authorize: passwordWorkStep(deps) },
      async start() {
        // A maintenance command never creates the bootstrap account behind the operator's back.
        if (context.mode === 'maintenance') return;
        await bootstrapAdmin(services.db as Knex, deps);
        await warnShadowedRegistrations(services.db as Knex, deps);
      },
    };
  },
  commands: { 'reset-password': resetPasswordCommand },
};
export default plugin;
