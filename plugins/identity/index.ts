import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { apiTokenAuthenticator } from './authenticators/api-token.js';
import { breakGlassAuthenticator, breakGlassReadAudit } from './authenticators/break-glass.js';
import { oidcAuthenticator } from './authenticators/oidc.js';
import { sessionAuthenticator } from './authenticators/session.js';
import { bootstrapCredential, createBootstrapAdmin, prepareBootstrapCredential, type BootstrapCredential } from './bootstrap.js';
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

export default createPlugin({
  id: 'identity',
  manifest: fromRoot('manifests', 'identity.json'),
  migrations: [createIdentityTables, secureIdentityGrants],
  deps: { db: coreServices.db, clock: coreServices.clock, catalog: coreServices.catalog, logger: coreServices.logger, audit: coreServices.audit },
  prepare({ settings: raw, profile, mode, newDatabase }) {
    const settings = parseSettings(raw, profile, process.env);
    // The bootstrap password is hashed from here on, while the database opens. Not for a
    // maintenance command (it never creates the account behind the operator's back), nor on a
    // database that existed already (its account was made on its first start).
    const credential = mode === 'maintenance' || newDatabase === false ? undefined : prepareBootstrapCredential(settings);
    return { settings, credential };
  },
  setup({ db, clock, catalog, logger, audit }, context) {
    const { settings, credential } = context.prepared;
    const deps: IdentityDeps = {
      settings,
      clock,
      roles: new RoleBook(builtInRoles(catalog)),
      hashes: new Semaphore(settings.maxConcurrentHashes, settings.maxQueuedHashes),
      logger,
      catalog,
      audit,
    };
    // The credential chain, in the order of spec §5: session, API token, OIDC JWT, break-glass.
    const authenticators = [sessionAuthenticator(deps), apiTokenAuthenticator(deps), oidcAuthenticator(deps)];
    // A maintenance command never creates the bootstrap account behind the operator's back.
    const bootstrap: Promise<BootstrapCredential | null> | undefined = context.mode === 'maintenance' ? undefined : bootstrapCredential(db, deps, credential);
    // Observed at start; a boot that fails before then must not report it as unhandled.
    bootstrap?.catch(() => undefined);
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
      contributions: [
        ...authenticators.map((a) => contribute(coreExtensions.authenticators, a)),
        contribute(coreExtensions.tenantDirectory, { list: allTenantIds, exists: tenantExists }),
        contribute(coreExtensions.steps, { slot: 'authenticate', factory: breakGlassReadAudit(deps) }),
        contribute(coreExtensions.steps, { slot: 'authorize', factory: passwordWorkStep(deps) }),
      ],
      async start() {
        if (!bootstrap) return;
        await createBootstrapAdmin(db, deps, await bootstrap);
        await warnShadowedRegistrations(db, deps);
      },
    };
  },
  commands: { 'reset-password': resetPasswordCommand },
});
